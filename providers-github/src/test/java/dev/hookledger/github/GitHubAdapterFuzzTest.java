package dev.hookledger.github;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.hookledger.Secrets;
import dev.hookledger.spi.testkit.FuzzedDelivery;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * Fuzzes {@link GitHubAdapter}'s header check, signature check and payload reading (JSON and form
 * bodies): any input ends in an event or a {@code DeliveryRejectedException}. In a plain build this
 * runs over the corpus in {@code GitHubAdapterFuzzTestInputs/} (real installation, issue and push
 * deliveries, malformed ones, and what fuzzing found); see the README to fuzz for a fixed time.
 */
class GitHubAdapterFuzzTest {
  private static final String SECRET = "gh_fuzz_secret";
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-06-01T12:00:00Z"), ZoneOffset.UTC);
  private static final GitHubAdapter SHA256 = new GitHubAdapter();
  private static final GitHubAdapter WITH_SHA1 = GitHubAdapter.builder().acceptSha1(true).build();
  private static final GitHubTestSigner SIGNER = GitHubTestSigner.withSecret(SECRET);

  @FuzzTest(maxDuration = "3m")
  void anyDeliveryEndsInAnEventOrARejection(byte[] input) {
    FuzzedDelivery fuzzed = FuzzedDelivery.parse(input, "/webhooks/github");
    for (GitHubAdapter adapter : new GitHubAdapter[] {SHA256, WITH_SHA1}) {
      fuzzed.check(adapter, Secrets.of(SECRET), CLOCK,
          (d, body) -> new String[] {"X-Hub-Signature-256", SIGNER.signature256(body)});
    }
  }
}
