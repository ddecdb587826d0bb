package dev.hookledger.standardwebhooks;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.Timestamps;
import dev.hookledger.spi.AsymmetricSignatures;
import dev.hookledger.spi.DeliveryChecks;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.PublicKeys;
import dev.hookledger.spi.Rejections;
import dev.hookledger.spi.Signatures;
import dev.hookledger.spi.VerificationKey;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Verifies Standard Webhooks deliveries (spec v1.0.0), the scheme of Svix and of the providers that
 * send through it, for any provider id.
 *
 * <pre>{@code
 * WebhookRuntime.builder()
 *     .provider(StandardWebhooksAdapter.named("clerk"), Secrets.fromEnvironment("CLERK_WEBHOOK_SECRET"))
 *     .provider(StandardWebhooksAdapter.builder("acme")
 *         .singleType("acme.notification")              // its payloads carry no type
 *         .publicKey("2026-01", "whpk_...")              // v1a (Ed25519) signatures
 *         .build(), Secrets.none())
 * }</pre>
 *
 * <p>Verification, following the spec and its reference libraries: {@code webhook-signature} is a
 * space-separated list of {@code v1,<base64 HMAC-SHA256>} and {@code v1a,<base64 Ed25519>} entries
 * over {@code <webhook-id>.<webhook-timestamp>.<raw body>}; the delivery passes when any entry
 * matches any configured secret or public key, compared in constant time, and the matching one's id
 * is recorded on the event. Senders built on Svix (Clerk, Resend, ...) name the same three headers
 * {@code svix-id}, {@code svix-timestamp} and {@code svix-signature}: as Svix's own libraries do,
 * that set is read when all three are there, else the {@code webhook-*} set. The headers are checked
 * before the body is read ({@link #checkHeaders}).
 *
 * <p>Secrets are the text the sender shows, as the reference libraries take it: the HMAC key is the
 * base64 after the {@code whsec_} prefix, or the whole text base64-decoded when it has no prefix
 * ({@link Secrets#of(String...)} works either way); a {@link Secret} whose bytes are not printable
 * text is taken as the key itself (Svix's {@code Webhook(byte[])}), and text that is not base64, or
 * a key shorter than 16 bytes (the spec's senders issue 24 to 64), fails naming the secret's id, at
 * start-up ({@link #checkSecrets}). The signature is checked first, then the timestamp, within a
 * two-sided tolerance (300 s by default, as the spec's libraries).
 *
 * <p>Event fields: the id is the message id header, the same on every retry; the scope is empty
 * (one sender per endpoint); the type is the payload's {@code type} field unless
 * {@link Builder#typeField} names another or {@link Builder#singleType} gives every event one type.
 * The spec only recommends a type: a payload without one (absent or {@code null}) is accepted with
 * the empty type, which only {@code @OnEvent("*")} receives; a type that is neither a string nor an
 * integer is refused as malformed. Occurred-at is the payload's {@code timestamp} when it is an
 * ISO-8601 string.
 *
 * <p>Immutable and thread-safe. The no-argument constructor, used by {@link java.util.ServiceLoader},
 * is {@code named("standard")}.
 */
public final class StandardWebhooksAdapter implements ProviderAdapter {
  /** The id of the adapter {@link java.util.ServiceLoader} finds: {@code standard}. */
  public static final String DEFAULT_ID = "standard";
  /** The header holding the signatures. */
  public static final String SIGNATURE = "webhook-signature";
  /** The header holding the message id, used as the event id. */
  public static final String MESSAGE_ID = "webhook-id";
  /** The header holding the signed Unix timestamp of this attempt. */
  public static final String TIMESTAMP = "webhook-timestamp";
  /** {@link #SIGNATURE} as senders built on Svix name it; read first when the whole {@code svix-*} set is there. */
  public static final String SVIX_SIGNATURE = "svix-signature";
  /** {@link #MESSAGE_ID} as senders built on Svix name it. */
  public static final String SVIX_MESSAGE_ID = "svix-id";
  /** {@link #TIMESTAMP} as senders built on Svix name it. */
  public static final String SVIX_TIMESTAMP = "svix-timestamp";
  /** The tolerance of the spec's libraries, 300 s either way. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);
  /** The spec publishes no body limit: 5 MiB, like any adapter that does not say otherwise. */
  public static final int DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
  /** The payload field read for the type unless configured otherwise, as the spec recommends. */
  public static final String DEFAULT_TYPE_FIELD = "type";

  private static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]*");
  private static final String MISMATCH_HINT =
      "give the whole whsec_ secret of this endpoint (its key is the base64 after whsec_)";
  private static final String NO_TYPE = "";

  private final String id;
  private final Duration tolerance;
  private final int maxBodyBytes;
  private final JsonPointer typePointer;
  private final String typeName;
  private final String singleType;
  private final Map<String, VerificationKey> publicKeys;
  private final WhsecKeys keys;

  /** {@code named("standard")}: the adapter {@code ServiceLoader} and {@code web.xml} find. */
  public StandardWebhooksAdapter() {
    this(builder(DEFAULT_ID));
  }

  private StandardWebhooksAdapter(Builder b) {
    this.id = b.id;
    this.tolerance = b.tolerance;
    this.maxBodyBytes = b.maxBodyBytes;
    this.typePointer = b.typePointer;
    this.typeName = b.typeName;
    this.singleType = b.singleType;
    this.publicKeys = Collections.unmodifiableMap(new LinkedHashMap<>(b.publicKeys));
    this.keys = new WhsecKeys(b.id);
  }

  /**
   * An adapter with the defaults for the provider {@code id}: type from the payload's {@code type},
   * tolerance 300 s, body limit 5 MiB, HMAC ({@code v1}) only.
   *
   * @param id the provider id, lower case, e.g. {@code clerk}: deliveries arrive at
   *     {@code /webhooks/clerk}
   * @throws IllegalArgumentException if the id is not lower-case letters, digits and {@code -}
   */
  public static StandardWebhooksAdapter named(String id) {
    return builder(id).build();
  }

  /** A builder for the provider {@code id}; see {@link #named(String)}. */
  public static Builder builder(String id) {
    return new Builder(id);
  }

  /**
   * One {@code whsec_...} secret (the prefix is optional, as in the reference libraries), checked
   * now rather than at the first delivery.
   *
   * @throws IllegalArgumentException if the text after {@code whsec_} is not base64 or its key is
   *     shorter than 16 bytes; names the id, never the value
   */
  public static Secret secret(String id, String whsec) {
    requireNonNull(id, "id");
    return WhsecKeys.canonical(id, WhsecKeys.decode(id, whsec, ""));
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public int maxBodyBytes() {
    return maxBodyBytes;
  }

  /** Shared secrets are needed unless the adapter verifies {@code v1a} signatures with public keys it was given. */
  @Override
  public boolean needsSecrets() {
    return publicKeys.isEmpty();
  }

  /**
   * Refuses a secret that is not base64 or whose key is shorter than 16
   * bytes: the spec's senders issue keys of 24 to 64 random bytes, so a shorter one is a typo or a
   * guessable key.
   */
  @Override
  public void checkSecrets(Secrets secrets) {
    keys.of(secrets);
  }

  /** How far a signed timestamp may be from now, in either direction. */
  public Duration tolerance() {
    return tolerance;
  }

  /**
   * Refuses, before the body is read, a delivery without a complete, well-formed set of the three
   * headers (either set), as {@link #verify} would.
   */
  @Override
  public void checkHeaders(InboundDelivery delivery, Secrets secrets) {
    StandardWebhooksSignatureHeader.parse(delivery.headers());
  }

  @Override
  public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
    // the body limit and a tenant without secrets are the runtime's to refuse, before this is called
    StandardWebhooksSignatureHeader header = StandardWebhooksSignatureHeader.parse(delivery.headers());
    String matched = match(header, secrets, delivery.body())
        .orElseThrow(() -> Rejections.signatureMismatch(header.names().signature(), secrets, MISMATCH_HINT));
    Instant signedAt = header.timestamp();
    DeliveryChecks.requireWithinTolerance(signedAt, clock, tolerance, header.names().timestamp());

    byte[] body = delivery.bodyBytes();
    JsonNode payload = DeliveryChecks.parseJson(body, "the " + id + " body");
    return WebhookEvent.builder()
        .provider(id)
        .eventId(header.messageId())
        .type(type(payload))
        .occurredAt(occurredAt(payload))
        .secretId(matched)
        .signedAt(signedAt)
        .body(body)
        .payload(payload)
        .header(header.names().messageId(), header.messageId())
        .build();
  }

  /** The id of the secret or public key that signed, each secret's HMAC computed once. */
  private Optional<String> match(StandardWebhooksSignatureHeader header, Secrets secrets, ByteBuffer body) {
    if (header.v1().length > 0 && !secrets.isEmpty()) {
      Optional<Secret> secret = Signatures.matchSha256(keys.of(secrets), header.v1(), header.signedPrefix(), body);
      if (secret.isPresent()) {
        return Optional.of(secret.get().id());
      }
    }
    for (Map.Entry<String, VerificationKey> key : publicKeys.entrySet()) {
      for (byte[] candidate : header.v1a()) {
        if (AsymmetricSignatures.verifyEd25519(key.getValue(), candidate, header.signedPrefix(), body)) {
          return Optional.of(key.getKey());
        }
      }
    }
    return Optional.empty();
  }

  private String type(JsonNode payload) {
    if (singleType != null) {
      return singleType;
    }
    JsonNode value = payload.at(typePointer);
    if (value.isMissingNode() || value.isNull()) {
      // the spec only recommends a type: such an event is recorded, and only @OnEvent("*") receives it
      return NO_TYPE;
    }
    if (!(value.isTextual() || value.isIntegralNumber())) {
      throw Rejections.malformed("the " + id + " body's '" + typeName + "' is not a string (configure typeField or"
          + " singleType if this sender puts its type elsewhere)");
    }
    return value.asText();
  }

  /** The payload's {@code timestamp}, when it is an ISO-8601 string: evidence only, never a reason to refuse. */
  private static Instant occurredAt(JsonNode payload) {
    JsonNode value = payload.path("timestamp");
    if (!value.isTextual()) {
      return null;
    }
    try {
      return Timestamps.parseOffsetDateTime(value.asText().trim());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return "StandardWebhooksAdapter[" + id + "]";
  }

  /** Builds a {@link StandardWebhooksAdapter}; not thread-safe. */
  public static final class Builder {
    private final String id;
    private Duration tolerance = DEFAULT_TOLERANCE;
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private JsonPointer typePointer = JsonPointer.compile("/" + DEFAULT_TYPE_FIELD);
    private String typeName = DEFAULT_TYPE_FIELD;
    private String singleType;
    private final Map<String, VerificationKey> publicKeys = new LinkedHashMap<>();

    private Builder(String id) {
      requireNonNull(id, "id");
      if (!ID.matcher(id).matches()) {
        throw new IllegalArgumentException(
            "provider id must be lower-case letters, digits and '-', starting with a letter, but was '" + id + "'");
      }
      this.id = id;
    }

    /**
     * Where the type is read: a top-level field name ({@code event_type}) or a JSON Pointer
     * ({@code /data/kind}). Replaces a {@link #singleType}. Default {@code type}. A payload with
     * nothing there is accepted with the empty type.
     *
     * @throws IllegalArgumentException if it is blank
     */
    public Builder typeField(String field) {
      requireNonNull(field, "field");
      if (field.isBlank()) {
        throw new IllegalArgumentException("typeField must not be blank");
      }
      String pointer = field.startsWith("/") ? field : "/" + field.replace("~", "~0").replace("/", "~1");
      this.typePointer = JsonPointer.compile(pointer);
      this.typeName = field;
      this.singleType = null;
      return this;
    }

    /**
     * Gives every event the type {@code type}, for senders whose payloads name none; nothing is read
     * from the payload. Replaces a {@link #typeField}.
     */
    public Builder singleType(String type) {
      requireNonNull(type, "type");
      if (type.isBlank()) {
        throw new IllegalArgumentException("singleType must not be blank");
      }
      this.singleType = type;
      return this;
    }

    /**
     * How far a signed timestamp may be from now, in either direction; default 300 s.
     *
     * @throws IllegalArgumentException if it is less than one second
     */
    public Builder tolerance(Duration tolerance) {
      requireNonNull(tolerance, "tolerance");
      if (tolerance.getSeconds() < 1) {
        throw new IllegalArgumentException("tolerance must be >= 1 s, but was " + tolerance);
      }
      this.tolerance = tolerance;
      return this;
    }

    /** The largest body accepted, in bytes; default 5 MiB. */
    public Builder maxBodyBytes(int maxBodyBytes) {
      this.maxBodyBytes = DeliveryChecks.requireBodyLimit(maxBodyBytes);
      return this;
    }

    /**
     * Accepts {@code v1a} (Ed25519) signatures under this public key, recorded as {@code id} on the
     * events it verifies. With at least one key, deliveries are verified even with no secret.
     */
    public Builder publicKey(String id, VerificationKey key) {
      requireNonNull(id, "id");
      requireNonNull(key, "key");
      if (key.algorithm() != VerificationKey.Algorithm.ED25519) {
        throw new IllegalArgumentException("public key '" + id + "' is " + key.algorithm()
            + ", but v1a signatures are Ed25519");
      }
      if (publicKeys.putIfAbsent(id, key) != null) {
        throw new IllegalArgumentException("duplicate public key id '" + id + "'");
      }
      return this;
    }

    /** Like {@link #publicKey(String, VerificationKey)} with the sender's {@code whpk_<base64>} text. */
    public Builder publicKey(String id, String whpk) {
      requireNonNull(whpk, "whpk");
      String base64 = whpk.strip().startsWith("whpk_") ? whpk.strip().substring("whpk_".length()) : whpk.strip();
      byte[] raw;
      try {
        raw = Base64.getDecoder().decode(base64);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("public key '" + id + "' is not whpk_ followed by base64");
      }
      return publicKey(id, PublicKeys.ed25519(raw));
    }

    public StandardWebhooksAdapter build() {
      return new StandardWebhooksAdapter(this);
    }
  }
}
