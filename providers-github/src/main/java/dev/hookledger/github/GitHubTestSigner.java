package dev.hookledger.github;

import static java.util.Objects.requireNonNull;

import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secret;
import dev.hookledger.spi.Signatures;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Signs bodies the way GitHub does and adds the identity headers GitHub sends, for tests and local
 * tools.
 *
 * <pre>{@code
 * InboundDelivery d = GitHubTestSigner.withSecret("s3cret").hookId("42")
 *     .delivery("issues", "{\"action\":\"opened\",\"issue\":{...}}");
 * }</pre>
 *
 * <p>Each delivery gets {@code X-Hub-Signature-256} and, as GitHub still sends it, the legacy
 * {@code X-Hub-Signature} (turn off with {@link #withoutSha1()}); {@code X-GitHub-Event};
 * {@code X-GitHub-Delivery} (a random GUID unless {@link #deliveryId} fixes one);
 * {@code X-GitHub-Hook-ID} (default {@value #DEFAULT_HOOK_ID}); the installation-target headers and
 * a {@code GitHub-Hookshot/} user agent. Immutable and thread-safe.
 */
public final class GitHubTestSigner {
  /** The hook id used unless {@link #hookId} says otherwise. */
  public static final String DEFAULT_HOOK_ID = "1";
  /** Where deliveries are addressed. */
  public static final String PATH = "/webhooks/github";

  private final Secret secret;
  private final String hookId;
  private final String deliveryId;
  private final boolean sha1;

  private GitHubTestSigner(Secret secret, String hookId, String deliveryId, boolean sha1) {
    this.secret = secret;
    this.hookId = hookId;
    this.deliveryId = deliveryId;
    this.sha1 = sha1;
  }

  /** A signer for a hook with {@code secret} (used as its UTF-8 bytes). */
  public static GitHubTestSigner withSecret(String secret) {
    requireNonNull(secret, "secret");
    return new GitHubTestSigner(
        Secret.of("test", secret.getBytes(StandardCharsets.UTF_8)), DEFAULT_HOOK_ID, null, true);
  }

  /** The same signer sending {@code X-GitHub-Hook-ID: hookId}. */
  public GitHubTestSigner hookId(String hookId) {
    return new GitHubTestSigner(secret, requireNonNull(hookId, "hookId"), deliveryId, sha1);
  }

  /** The same signer sending this {@code X-GitHub-Delivery} GUID on every delivery (as a redelivery does). */
  public GitHubTestSigner deliveryId(String deliveryId) {
    return new GitHubTestSigner(secret, hookId, requireNonNull(deliveryId, "deliveryId"), sha1);
  }

  /** The same signer without the legacy {@code X-Hub-Signature} header. */
  public GitHubTestSigner withoutSha1() {
    return new GitHubTestSigner(secret, hookId, deliveryId, false);
  }

  /** The {@code X-Hub-Signature-256} value for {@code body}. */
  public String signature256(byte[] body) {
    return "sha256=" + Signatures.hex(Signatures.hmacSha256(secret, ByteBuffer.wrap(body)));
  }

  /** The legacy {@code X-Hub-Signature} value for {@code body}. */
  public String signatureSha1(byte[] body) {
    return "sha1=" + Signatures.hex(Signatures.hmacSha1(secret, ByteBuffer.wrap(body)));
  }

  /** A complete {@code application/json} delivery of {@code event} ({@code issues}, {@code push}). */
  public InboundDelivery delivery(String event, byte[] body) {
    return signed(event, "application/json", body.clone());
  }

  /** A complete {@code application/json} delivery of a UTF-8 {@code body}. */
  public InboundDelivery delivery(String event, String body) {
    return signed(event, "application/json", body.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A complete {@code application/x-www-form-urlencoded} delivery: the body is
   * {@code payload=<URL-encoded json>}, signed as sent.
   */
  public InboundDelivery formDelivery(String event, String json) {
    String body = "payload=" + URLEncoder.encode(json, StandardCharsets.UTF_8);
    return signed(event, GitHubPayload.FORM, body.getBytes(StandardCharsets.US_ASCII));
  }

  private InboundDelivery signed(String event, String contentType, byte[] body) {
    HttpHeaders.Builder headers =
        HttpHeaders.builder()
            .add("Content-Type", contentType)
            .add("User-Agent", "GitHub-Hookshot/hookledger-test")
            .add(GitHubEventFields.EVENT_HEADER, requireNonNull(event, "event"))
            .add(GitHubEventFields.DELIVERY_HEADER, deliveryId != null ? deliveryId : UUID.randomUUID().toString())
            .add(GitHubEventFields.HOOK_ID_HEADER, hookId)
            .add("X-GitHub-Hook-Installation-Target-Type", "repository")
            .add("X-GitHub-Hook-Installation-Target-ID", "1296269")
            .add(GitHubSignatureCheck.SHA256_HEADER, signature256(body));
    if (sha1) {
      headers.add(GitHubSignatureCheck.SHA1_HEADER, signatureSha1(body));
    }
    return InboundDelivery.of("POST", PATH, headers.build(), body);
  }
}
