package dev.hookledger.stripe;

import static java.util.Objects.requireNonNull;

import dev.hookledger.InboundDelivery;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.DeliveryChecks;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.Rejections;
import dev.hookledger.spi.Signatures;
import dev.hookledger.spi.json.JsonSelection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Verifies Stripe webhook deliveries ({@code Stripe-Signature}) and reads Stripe Event objects.
 *
 * <pre>{@code
 * ProviderAdapter stripe = new StripeAdapter();                        // tolerance 300 s
 * ProviderAdapter strict = StripeAdapter.builder().tolerance(Duration.ofMinutes(2)).build();
 * }</pre>
 *
 * <p>Verification, following Stripe's docs and SDKs: the header's {@code t} and every {@code v1}
 * are read ({@code v0} and other schemes are ignored); the HMAC-SHA256 of the exact timestamp digits
 * received, {@code "."} and the raw body, keyed with the UTF-8 bytes of the whole secret
 * ({@code whsec_} prefix included), must equal one of the {@code v1} values under one of the
 * secrets, compared in constant time. During a roll Stripe signs with every active secret, and the
 * matching secret's id is recorded on the event. The signature is checked first, then the timestamp.
 *
 * <p>The timestamp window is <b>two-sided</b>: a timestamp more than the tolerance in the future is
 * rejected too. This is stricter than Stripe's own SDKs, which reject only old timestamps; a future
 * timestamp means one clock is wrong or the header was forged, and neither should pass silently.
 * Stripe signs every retry afresh, so a retry days later still passes a five-minute window.
 *
 * <p>Event fields: see {@link StripeEventFields} (id, Connect account as scope, {@code type},
 * {@code api_version}, {@code data.object} as entity, {@code created} as version, {@code livemode}).
 *
 * <p>Tenant: Stripe gives each endpoint (and each mode) its own secret, and a delivery names no
 * tenant outside its unverified body. {@link #tenantOf} therefore reads the first path segment
 * after the provider's own ({@link InboundDelivery#providerPath()}): to use one secret per connected
 * account, register one URL per account ({@code /webhooks/stripe/acct_123}, or under any other
 * prefix the application mounts its webhooks); {@code /webhooks/stripe} alone has the empty tenant.
 * When the tenant is an account id ({@code acct_...}) the event's scope is that account, the one
 * whose secret verified it, and an event whose signed {@code account} names another account is
 * refused ({@code SIGNATURE_MISMATCH}): one account's secret never vouches for another's events.
 *
 * <p>Immutable and thread-safe.
 */
public final class StripeAdapter implements ProviderAdapter {
  /** The provider id, {@code stripe}. */
  public static final String ID = StripeEventFields.PROVIDER;
  /** The tolerance of Stripe's SDKs, 300 s. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);
  /** Stripe publishes no body limit: 5 MiB, like any adapter that does not say otherwise. */
  public static final int DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

  private static final String ACCOUNT_PREFIX = "acct_";
  private static final String MISMATCH_HINT =
      "the whsec_ prefix is part of the key, and each endpoint and each mode (test or live) has its own secret";

  private final Duration tolerance;
  private final int maxBodyBytes;

  /**
   * The members of a Stripe event that {@link #verify} reads to identify it before it is recorded
   * ({@code id}, {@code type}, {@code account}, {@code created}, {@code data.object}'s {@code object}
   * and {@code id}, ...); the rest of the body is parsed only when a handler asks for it. For
   * measuring what the door reads, and for code that reads Stripe's events as this adapter does.
   * Immutable; never null.
   */
  public static JsonSelection identitySelection() {
    return StripeEventFields.SELECTION;
  }

  /** An adapter with the defaults: tolerance 300 s, body limit 5 MiB. */
  public StripeAdapter() {
    this(builder());
  }

  private StripeAdapter(Builder builder) {
    this.tolerance = builder.tolerance;
    this.maxBodyBytes = builder.maxBodyBytes;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String id() {
    return ID;
  }

  /**
   * 38: an endpoint's signing secret is {@code whsec_} followed by 32 characters (the Stripe CLI's are
   * longer), and the prefix is part of the key.
   */
  @Override
  public int minimumSecretLength() {
    return 38;
  }

  @Override
  public int maxBodyBytes() {
    return maxBodyBytes;
  }

  /** True: an object belongs to one account: its events all carry that account as their scope. */
  @Override
  public boolean entitiesStayInScope() {
    return true;
  }

  /** How far a signed timestamp may be from now, in either direction. */
  public Duration tolerance() {
    return tolerance;
  }

  /** The first segment of the path after the provider's own, or empty; see the class comment. */
  @Override
  public String tenantOf(InboundDelivery delivery) {
    String rest = delivery.providerPath();
    if (rest.isEmpty()) {
      return "";
    }
    rest = rest.substring(1);
    int slash = rest.indexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
  }

  /**
   * Refuses, before the body is read, a delivery with no well-formed signature (a tenant without a
   * secret is the runtime's to refuse, before this is called).
   */
  @Override
  public void checkHeaders(InboundDelivery delivery, Secrets secrets) {
    StripeSignatureHeader.parse(delivery.headers());
  }

  @Override
  public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
    StripeSignatureHeader header = StripeSignatureHeader.parse(delivery.headers());
    Secret secret =
        Signatures.matchSha256(secrets, header.v1(), header.signedPrefix(), delivery.body())
            .orElseThrow(() -> Rejections.signatureMismatch(StripeSignatureHeader.NAME, secrets, MISMATCH_HINT));
    Instant signedAt = header.timestamp();
    DeliveryChecks.requireWithinTolerance(signedAt, clock, tolerance, StripeSignatureHeader.NAME + " timestamp");

    byte[] body = delivery.bodyBytes();
    // only the members that identify the event are kept: the payload's tree is built when a handler asks
    StripeEventFields fields = StripeEventFields.from(StripeEventFields.SELECTION.readBody(body, "the Stripe body"));
    String tenant = tenantOf(delivery);
    if (tenant.startsWith(ACCOUNT_PREFIX)) {
      fields = fields.verifiedBy(tenant);
    }
    WebhookEvent.Builder event =
        fields.applyTo(WebhookEvent.builder())
            .secretId(secret.id())
            .signedAt(signedAt)
            .body(body);
    delivery.headers().first("User-Agent").ifPresent(ua -> event.header("User-Agent", ua));
    return event.build();
  }

  @Override
  public String toString() {
    return "StripeAdapter[tolerance=" + tolerance + ", maxBodyBytes=" + maxBodyBytes + "]";
  }

  /** Options for a {@link StripeAdapter}; not thread-safe. */
  public static final class Builder {
    private Duration tolerance = DEFAULT_TOLERANCE;
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;

    private Builder() {}

    /**
     * How far a signed timestamp may be from now, in either direction; at least one second, judged
     * in whole seconds (a fraction is ignored). Stripe's SDKs use 300 s; Stripe's docs warn against
     * turning the check off, so it cannot be.
     */
    public Builder tolerance(Duration tolerance) {
      requireNonNull(tolerance, "tolerance");
      if (tolerance.getSeconds() < 1) {
        throw new IllegalArgumentException("tolerance must be at least 1 second, but was " + tolerance);
      }
      this.tolerance = tolerance;
      return this;
    }

    /** The largest body accepted, in bytes; at least 1. */
    public Builder maxBodyBytes(int maxBodyBytes) {
      this.maxBodyBytes = DeliveryChecks.requireBodyLimit(maxBodyBytes);
      return this;
    }

    public StripeAdapter build() {
      return new StripeAdapter(this);
    }
  }
}
