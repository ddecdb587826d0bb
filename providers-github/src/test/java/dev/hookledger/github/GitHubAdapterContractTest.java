package dev.hookledger.github;

import dev.hookledger.InboundDelivery;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.testkit.AdapterContractTest;
import java.time.Instant;
import java.util.Set;

/** The adapter contract kit applied to {@link GitHubAdapter} with its defaults (SHA-256 only). */
class GitHubAdapterContractTest extends AdapterContractTest {

  @Override
  protected ProviderAdapter adapter() {
    return new GitHubAdapter();
  }

  @Override
  protected String signatureHeader() {
    return "X-Hub-Signature-256";
  }

  @Override
  protected InboundDelivery sign(String secret, byte[] body, Instant signedAt) {
    // the signer also sends the legacy SHA-1 header, as GitHub does: removing the SHA-256 one
    // must still be SIGNATURE_MISSING while SHA-1 is off
    return GitHubTestSigner.withSecret(secret).delivery("issues", body);
  }

  @Override
  protected String validBody() {
    return "{\"action\":\"opened\",\"issue\":{\"id\":1,\"number\":1347,\"updated_at\":\"2024-01-01T00:00:00Z\"},"
        + "\"repository\":{\"id\":1296269,\"full_name\":\"octocat/Hello-World\"}}";
  }

  @Override
  protected String nonAsciiBody() {
    return "{\"action\":\"edited\",\"issue\":{\"id\":2,\"title\":\"Café ☕ 日本語 🚀\"}}";
  }

  /** The id and the event name come from headers; the payload's {@code action} completes the type. */
  @Override
  protected Set<String> identifyingFields() {
    return Set.of("/action");
  }
}
