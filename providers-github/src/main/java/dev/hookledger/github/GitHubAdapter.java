package dev.hookledger.github;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.DeliveryChecks;
import dev.hookledger.spi.ProviderAdapter;
import java.time.Clock;
import java.util.List;

/**
 * Verifies GitHub webhook deliveries ({@code X-Hub-Signature-256}) and reads their identity headers.
 *
 * <pre>{@code
 * ProviderAdapter github = new GitHubAdapter();                                  // SHA-256 only
 * ProviderAdapter legacy = GitHubAdapter.builder().acceptSha1(true).build();     // also X-Hub-Signature
 * }</pre>
 *
 * <p>Verification: {@code sha256=} followed by the hex HMAC-SHA256 of the raw body, keyed with the
 * secret's UTF-8 bytes, compared in constant time against each configured secret in turn (GitHub
 * has one secret per hook and never sends two signatures, so rotation means configuring the old and
 * new secret here while the hook's secret is changed). The legacy SHA-1 {@code X-Hub-Signature}
 * is refused unless {@linkplain Builder#acceptSha1 enabled}, and even then used only when the
 * SHA-256 header is absent. GitHub signs no timestamp, so there is no tolerance window.
 *
 * <p>Both content types a hook can use are read: {@code application/json}, and
 * {@code application/x-www-form-urlencoded}, where the JSON is the URL-decoded {@code payload} field
 * ({@link WebhookEvent#payloadJson()} holds it; {@link WebhookEvent#body()} the signed bytes).
 *
 * <p>Event fields: see {@link GitHubEventFields} ({@code X-GitHub-Delivery} as id,
 * {@code X-GitHub-Hook-ID} as scope, {@code X-GitHub-Event} plus {@code action} as type, the
 * resource's {@code updated_at} as entity version). Tenant ({@link #tenantOf}): the hook id, so
 * that a {@link dev.hookledger.SecretResolver} can hold one secret per hook. Bodies are limited to
 * GitHub's documented 25 MB unless {@linkplain Builder#maxBodyBytes configured} lower. Immutable and
 * thread-safe.
 */
public final class GitHubAdapter implements ProviderAdapter {
  /** The provider id, {@code github}. */
  public static final String ID = GitHubEventFields.PROVIDER;
  /** GitHub does not deliver payloads above 25 MB (its webhook docs): the default body limit, 25 MiB. */
  public static final int MAX_BODY_BYTES = 25 * 1024 * 1024;

  /** Non-secret headers kept on the event as evidence. */
  private static final List<String> EVIDENCE =
      List.of(
          GitHubEventFields.EVENT_HEADER,
          GitHubEventFields.DELIVERY_HEADER,
          GitHubEventFields.HOOK_ID_HEADER,
          "X-GitHub-Hook-Installation-Target-Type",
          "X-GitHub-Hook-Installation-Target-ID",
          "X-GitHub-Enterprise-Version",
          "X-GitHub-Enterprise-Host",
          "Content-Type",
          "User-Agent");

  private final boolean acceptSha1;
  private final int maxBodyBytes;
  private final GitHubSignatureCheck signature;

  /** An adapter with the defaults: SHA-256 signatures only, body limit 25 MiB. */
  public GitHubAdapter() {
    this(builder());
  }

  private GitHubAdapter(Builder builder) {
    this.acceptSha1 = builder.acceptSha1;
    this.maxBodyBytes = builder.maxBodyBytes;
    this.signature = new GitHubSignatureCheck(acceptSha1);
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String id() {
    return ID;
  }

  /** The body limit: GitHub's documented 25 MB ({@link #MAX_BODY_BYTES}) unless configured. */
  /**
   * 16: GitHub lets the user choose the secret and asks for "a random string of text with high
   * entropy"; anything shorter than the admin token's floor is refused as guessable.
   */
  @Override
  public int minimumSecretLength() {
    return 16;
  }

  @Override
  public int maxBodyBytes() {
    return maxBodyBytes;
  }

  /** Whether the legacy SHA-1 {@code X-Hub-Signature} is accepted when SHA-256 is absent. */
  public boolean acceptsSha1() {
    return acceptSha1;
  }

  /** The {@code X-GitHub-Hook-ID} header, or empty. */
  /**
   * False: GitHub does not retry a failed delivery on its own; it is redelivered only by hand or
   * through its API (see {@link GitHubReplaySource}).
   */
  @Override
  public boolean redeliversOnFailure() {
    return false;
  }

  @Override
  public String tenantOf(InboundDelivery delivery) {
    return delivery.headers().first(GitHubEventFields.HOOK_ID_HEADER).map(String::trim).orElse("");
  }

  /**
   * Refuses, before the body is read, a delivery with no well-formed signature (a hook without a
   * secret is the runtime's to refuse, before this is called).
   */
  @Override
  public void checkHeaders(InboundDelivery delivery, Secrets secrets) {
    signature.expected(delivery.headers());
  }

  @Override
  public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
    HttpHeaders headers = delivery.headers();
    Secret secret = signature.verify(headers, delivery.body(), secrets);

    byte[] body = delivery.bodyBytes();
    boolean form = GitHubPayload.isForm(headers);
    byte[] json = form ? GitHubPayload.fromForm(body) : body;
    // only the members that identify the event are kept: the payload's tree is built when a handler asks
    JsonNode identity = GitHubEventFields.selection(headers)
        .readBody(json, form ? "the 'payload' field of the GitHub body" : "the GitHub body");
    WebhookEvent.Builder event =
        GitHubEventFields.from(headers, identity).applyTo(WebhookEvent.builder())
            .secretId(secret.id())
            .body(body)
            .payloadJson(json);
    for (String name : EVIDENCE) {
      headers.first(name).ifPresent(value -> event.header(name, value));
    }
    return event.build();
  }

  @Override
  public String toString() {
    return "GitHubAdapter[acceptSha1=" + acceptSha1 + ", maxBodyBytes=" + maxBodyBytes + "]";
  }

  /** Options for a {@link GitHubAdapter}; not thread-safe. */
  public static final class Builder {
    private boolean acceptSha1;
    private int maxBodyBytes = MAX_BODY_BYTES;

    private Builder() {}

    /**
     * Whether to accept the legacy HMAC-SHA1 {@code X-Hub-Signature} when {@code X-Hub-Signature-256}
     * is absent (GitHub Enterprise Server versions that predate SHA-256). Off by default: GitHub's
     * docs advise against SHA-1.
     */
    public Builder acceptSha1(boolean acceptSha1) {
      this.acceptSha1 = acceptSha1;
      return this;
    }

    /**
     * The largest body accepted, in bytes; at least 1; default {@link #MAX_BODY_BYTES} (GitHub's
     * documented 25 MB). Lower it if your hooks carry small events; a higher value admits nothing
     * GitHub sends.
     */
    public Builder maxBodyBytes(int maxBodyBytes) {
      this.maxBodyBytes = DeliveryChecks.requireBodyLimit(maxBodyBytes);
      return this;
    }

    public GitHubAdapter build() {
      return new GitHubAdapter(this);
    }
  }
}
