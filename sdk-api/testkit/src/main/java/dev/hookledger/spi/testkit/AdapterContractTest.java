package dev.hookledger.spi.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.ProviderAdapter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link ProviderAdapter} must meet, as JUnit tests an adapter's own test class
 * inherits. Extend it, supply the adapter, a signer that produces what the provider would send, and
 * two sample bodies:
 *
 * <pre>{@code
 * class AcmeAdapterContractTest extends AdapterContractTest {
 *   protected ProviderAdapter adapter() { return new AcmeAdapter(); }
 *   protected String signatureHeader() { return "Acme-Signature"; }
 *   protected InboundDelivery sign(String secret, byte[] body, Instant signedAt) {
 *     return AcmeTestSigner.withSecret(secret).delivery(body, signedAt);
 *   }
 *   protected String validBody() { return "{\"id\":\"evt_1\",\"type\":\"thing.created\"}"; }
 *   protected String nonAsciiBody() { return "{\"id\":\"evt_2\",\"type\":\"thing.renamed\",\"name\":\"Zoë 東京\"}"; }
 *   protected Optional<Duration> timestampTolerance() { return Optional.of(Duration.ofMinutes(5)); }
 * }
 * }</pre>
 *
 * <p>What it checks: a valid delivery is accepted and the matching secret recorded; one flipped body
 * byte, a wrong secret, a missing or garbled signature header, and a missing secret are each refused
 * with their precise {@link RejectionReason}; either of two rotated secrets verifies; a non-ASCII
 * UTF-8 body survives byte for byte; an empty body and an oversized one are refused, never crash;
 * signed timestamps are judged two-sided, with both boundaries inclusive; no rejection message
 * contains a secret, a signature value or the body; signature headers are never kept as evidence;
 * verification is thread-safe; the adapter id is lower case and the class is found by
 * {@link ServiceLoader}.
 *
 * <p>Every check runs against a fixed clock ({@link #NOW}) passed to the signer and the adapter.
 */
public abstract class AdapterContractTest {
  /** The instant every check treats as now. */
  protected static final Instant NOW = Instant.parse("2024-06-01T12:00:00Z");

  private static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]*");

  /** For the adapter's own test class, which extends this one. */
  public AdapterContractTest() {}

  /** The adapter as {@code ServiceLoader} would build it (default options). */
  protected abstract ProviderAdapter adapter();

  /** The name of the header that carries the signature. */
  protected abstract String signatureHeader();

  /**
   * A complete delivery of {@code body}, signed with {@code secret} as the provider would sign it at
   * {@code signedAt} (ignored by providers that sign no timestamp), with every header the provider
   * sends.
   */
  protected abstract InboundDelivery sign(String secret, byte[] body, Instant signedAt);

  /** A typical body the adapter must accept. */
  protected abstract String validBody();

  /** A body the adapter must accept that holds characters outside ASCII. */
  protected abstract String nonAsciiBody();

  /** The timestamp tolerance of {@link #adapter()}, when the provider signs a timestamp; empty if not. */
  protected Optional<Duration> timestampTolerance() {
    return Optional.empty();
  }

  /** A secret value in the provider's usual form; {@code name} makes it distinct. */
  protected String secretValue(String name) {
    return "hookledger-contract-" + name + "-secret-7f3a9c";
  }

  /** The {@link Secret} an operator would configure for {@code value} (its UTF-8 bytes, by default). */
  protected Secret secret(String id, String value) {
    return Secret.of(id, value.getBytes(StandardCharsets.UTF_8));
  }

  /** A value that is not a signature in the provider's format. */
  protected String garbledSignature() {
    return "garbled!!";
  }

  /** The reasons a garbled signature header may honestly be refused with. */
  protected Set<RejectionReason> garbledSignatureReasons() {
    return EnumSet.of(RejectionReason.SIGNATURE_MALFORMED);
  }

  protected Clock clock() {
    return Clock.fixed(NOW, ZoneOffset.UTC);
  }

  /**
   * The JSON Pointers ({@code /id}, {@code /data/object/id}) of the fields of {@link #validBody()}
   * that identify the event: its id and its type. Only these may make a verified delivery
   * {@link RejectionReason#MALFORMED}; every other field is taken to serve ordering or display, and
   * a delivery whose signature holds must be accepted whatever it holds. None by default.
   */
  protected Set<String> identifyingFields() {
    return Set.of();
  }

  /**
   * Headers outside the signature that serve only ordering or display ({@code X-Shopify-Triggered-At}).
   * Removed, garbled or set far in the future, a signed delivery must still be accepted, and its
   * entity version never taken from them. None by default.
   */
  protected Set<String> unsignedOrderingHeaders() {
    return Set.of();
  }

  // ---------------------------------------------------------------- acceptance

  @Test
  public void validDeliveryIsAcceptedWithTheMatchingSecretRecorded() {
    byte[] body = utf8(validBody());
    InboundDelivery delivery = sign(secretValue("primary"), body, NOW);

    WebhookEvent event = adapter().verify(delivery, secrets("primary"), clock());

    assertEquals(adapter().id(), event.provider());
    assertFalse(event.eventId().isEmpty(), "event id");
    assertFalse(event.type().isEmpty(), "type");
    assertNotNull(event.scope(), "scope");
    assertArrayEquals(body, event.body(), "the event keeps the exact received bytes");
    assertEquals(Optional.of("primary"), event.secretId());
    assertNotNull(adapter().tenantOf(delivery), "tenantOf never answers null");
  }

  @Test
  public void sameDeliveryVerifiedTwiceGivesTheSameIdentity() {
    InboundDelivery delivery = sign(secretValue("primary"), utf8(validBody()), NOW);
    WebhookEvent first = adapter().verify(delivery, secrets("primary"), clock());
    WebhookEvent second = adapter().verify(delivery, secrets("primary"), clock());
    assertEquals(first.eventId(), second.eventId());
    assertEquals(first.scope(), second.scope());
    assertEquals(first.type(), second.type());
  }

  @Test
  public void signatureHeadersAreNeverKeptAsEvidence() {
    InboundDelivery delivery = sign(secretValue("primary"), utf8(validBody()), NOW);
    String signature = delivery.headers().first(signatureHeader()).orElseThrow();
    WebhookEvent event = adapter().verify(delivery, secrets("primary"), clock());
    assertFalse(event.headers().containsKey(signatureHeader().toLowerCase(Locale.ROOT)), "signature header kept");
    for (Map.Entry<String, String> header : event.headers().entrySet()) {
      assertFalse(header.getValue().contains(signature), "header " + header.getKey() + " holds the signature");
    }
  }

  @Test
  public void nonAsciiUtf8BodyIsAcceptedByteForByte() {
    String text = nonAsciiBody();
    byte[] body = utf8(text);
    assertTrue(body.length > text.length(), "nonAsciiBody() must hold characters outside ASCII");

    WebhookEvent event = adapter().verify(sign(secretValue("primary"), body, NOW), secrets("primary"), clock());

    assertArrayEquals(body, event.body());
    assertEquals(text, new String(event.body(), StandardCharsets.UTF_8));
  }

  @Test
  public void eitherOfTwoRotatedSecretsIsAcceptedAndTheMatchingOneRecorded() {
    Secrets rotating = secrets("new", "old");
    byte[] body = utf8(validBody());

    WebhookEvent signedWithOld = adapter().verify(sign(secretValue("old"), body, NOW), rotating, clock());
    WebhookEvent signedWithNew = adapter().verify(sign(secretValue("new"), body, NOW), rotating, clock());

    assertEquals(Optional.of("old"), signedWithOld.secretId());
    assertEquals(Optional.of("new"), signedWithNew.secretId());
  }

  /**
   * A verified delivery is never refused because a field used only for ordering or display is
   * missing, null, of another JSON type, or does not parse: every field of {@link #validBody()} not
   * in {@link #identifyingFields()}, and every {@link #unsignedOrderingHeaders() unsigned ordering
   * header}, is changed in turn and the delivery signed again. Each must be accepted with an id and
   * the same type, and with the entity version it had or none (never one read from a garbled value).
   */
  @Test
  public void verifiedDeliveryIsNeverRefusedOverAFieldUsedOnlyForOrderingOrDisplay() {
    WebhookEvent original = adapter().verify(sign(secretValue("primary"), utf8(validBody()), NOW), secrets("primary"), clock());
    List<String> failures = new ArrayList<>();
    for (BodyMutation mutation : BodyMutation.of(validBody(), identifyingFields())) {
      InboundDelivery delivery = sign(secretValue("primary"), utf8(mutation.body()), NOW);
      checkTolerated(original, delivery, mutation.description(), mutation.garbled(), failures);
    }
    InboundDelivery signed = sign(secretValue("primary"), utf8(validBody()), NOW);
    for (String header : unsignedOrderingHeaders()) {
      checkTolerated(original, withHeader(signed, header, null), "header " + header + " removed", false, failures);
      checkTolerated(original, withHeader(signed, header, "not-a-value"), "header " + header + " garbled", true, failures);
      checkTolerated(original, withHeader(signed, header, "9999-12-31T23:59:59Z"),
          "header " + header + " in the year 9999", true, failures);
    }
    assertEquals(List.of(), failures, "verified deliveries refused or misread over an ordering or display field");
  }

  private void checkTolerated(WebhookEvent original, InboundDelivery delivery, String what, boolean garbled,
      List<String> failures) {
    WebhookEvent event;
    try {
      event = adapter().verify(delivery, secrets("primary"), clock());
    } catch (DeliveryRejectedException e) {
      failures.add(what + ": refused " + e.reason() + " (" + e.getMessage() + ")");
      return;
    } catch (RuntimeException e) {
      failures.add(what + ": threw " + e);
      return;
    }
    // the id may come from the signer (a fresh delivery GUID each time); the type may not change
    if (event.eventId().isEmpty() || !event.type().equals(original.type())) {
      failures.add(what + ": identity changed to '" + event.eventId() + "' " + event.type());
    }
    if (garbled && event.entityVersion().isPresent() && !event.entityVersion().equals(original.entityVersion())) {
      failures.add(what + ": entity version " + event.entityVersion().getAsLong() + " read from it (was "
          + original.entityVersion() + ")");
    }
  }

  /**
   * The header check before the body is read ({@link ProviderAdapter#checkHeaders}) passes every
   * delivery {@code verify} accepts, and refuses only as {@code verify} would refuse.
   */
  @Test
  public void headerCheckPassesSignedDeliveriesAndRefusesOnlyAsVerifyWould() {
    InboundDelivery signed = sign(secretValue("primary"), utf8(validBody()), NOW);
    adapter().checkHeaders(withBody(signed, new byte[0]), secrets("primary"));
    adapter().checkHeaders(withBody(signed, new byte[0]), secrets("new", "primary"));
    Map<String, InboundDelivery> refused = new java.util.LinkedHashMap<>();
    refused.put("no signature header", withHeader(signed, signatureHeader(), null));
    refused.put("a garbled signature header", withHeader(signed, signatureHeader(), garbledSignature()));
    for (Map.Entry<String, InboundDelivery> c : refused.entrySet()) {
      sameRefusal(c.getKey(), c.getValue(), secrets("primary"));
    }
    // no secret at all is the runtime's to refuse, before either check (noConfiguredSecretAcceptsNothing)
  }

  private void sameRefusal(String what, InboundDelivery delivery, Secrets secrets) {
    RejectionReason byVerify = rejection(delivery, secrets).reason();
    try {
      adapter().checkHeaders(withBody(delivery, new byte[0]), secrets);
    } catch (DeliveryRejectedException e) {
      assertEquals(byVerify, e.reason(), "with " + what + ", the header check refused otherwise than verify");
      assertNoLeak(e, delivery, delivery.bodyBytes());
    }
  }

  // ---------------------------------------------------------------- rejections

  @Test
  public void flippedBodyByteIsRejectedAsMismatch() {
    byte[] body = utf8(validBody());
    InboundDelivery signed = sign(secretValue("primary"), body, NOW);
    for (int position : new int[] {0, body.length / 2, body.length - 1}) {
      byte[] tampered = body.clone();
      tampered[position] ^= 0x01;
      expectRejection(withBody(signed, tampered), secrets("primary"), RejectionReason.SIGNATURE_MISMATCH);
    }
  }

  @Test
  public void deliverySignedWithAnotherSecretIsRejectedAsMismatch() {
    InboundDelivery delivery = sign(secretValue("stranger"), utf8(validBody()), NOW);
    expectRejection(delivery, secrets("primary"), RejectionReason.SIGNATURE_MISMATCH);
  }

  @Test
  public void onlyTheNewSecretRejectsADeliverySignedWithTheOld() {
    InboundDelivery delivery = sign(secretValue("old"), utf8(validBody()), NOW);
    expectRejection(delivery, secrets("new"), RejectionReason.SIGNATURE_MISMATCH);
  }

  @Test
  public void missingSignatureHeaderIsRejectedAsMissing() {
    InboundDelivery signed = sign(secretValue("primary"), utf8(validBody()), NOW);
    expectRejection(withHeader(signed, signatureHeader(), null), secrets("primary"), RejectionReason.SIGNATURE_MISSING);
  }

  @Test
  public void garbledSignatureHeaderIsRejectedAsMalformed() {
    InboundDelivery signed = sign(secretValue("primary"), utf8(validBody()), NOW);
    DeliveryRejectedException e =
        rejection(withHeader(signed, signatureHeader(), garbledSignature()), secrets("primary"));
    assertTrue(
        garbledSignatureReasons().contains(e.reason()),
        "garbled signature refused with " + e.reason() + ", expected one of " + garbledSignatureReasons());
  }

  @Test
  public void noConfiguredSecretAcceptsNothing() {
    // the runtime refuses a tenant without secrets (NO_SECRET_CONFIGURED) before verify; an adapter
    // handed none anyway must still accept nothing
    InboundDelivery delivery = sign(secretValue("primary"), utf8(validBody()), NOW);
    if (adapter().needsSecrets()) {
      rejection(delivery, Secrets.none());
    }
  }

  @Test
  public void signedEmptyBodyIsRejectedAsMalformed() {
    InboundDelivery delivery = sign(secretValue("primary"), new byte[0], NOW);
    expectRejection(delivery, secrets("primary"), RejectionReason.MALFORMED);
  }

  @Test
  public void unsignedEmptyBodyIsRejectedAsMissingSignature() {
    InboundDelivery signed = sign(secretValue("primary"), new byte[0], NOW);
    expectRejection(withHeader(signed, signatureHeader(), null), secrets("primary"), RejectionReason.SIGNATURE_MISSING);
  }

  @Test
  public void bodyLimitIsAPositiveDefault() {
    // the runtime enforces it, with 413 before the body is read whole; the adapter only states it
    assertTrue(adapter().maxBodyBytes() > 0, "maxBodyBytes must be positive, but was " + adapter().maxBodyBytes());
  }

  // ---------------------------------------------------------------- timestamps

  @Test
  public void timestampsBeyondTheToleranceAreRejectedOnBothSides() {
    byte[] body = utf8(validBody());
    Optional<Duration> tolerance = timestampTolerance();
    if (tolerance.isEmpty()) {
      // nothing is signed but the body: a delivery signed long ago is as valid as a fresh one
      WebhookEvent event = adapter().verify(sign(secretValue("primary"), body, NOW.minus(Duration.ofDays(3))),
          secrets("primary"), clock());
      assertEquals(Optional.of("primary"), event.secretId());
      return;
    }
    Duration beyond = tolerance.get().plusSeconds(1);
    DeliveryRejectedException stale =
        expectRejection(sign(secretValue("primary"), body, NOW.minus(beyond)), secrets("primary"),
            RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE);
    DeliveryRejectedException future =
        expectRejection(sign(secretValue("primary"), body, NOW.plus(beyond)), secrets("primary"),
            RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE);
    assertTrue(stale.getMessage().toLowerCase(Locale.ROOT).contains("clock"), "a stale timestamp suggests checking the clock");
    assertTrue(future.getMessage().toLowerCase(Locale.ROOT).contains("clock"), "a future timestamp suggests checking the clock");
  }

  @Test
  public void timestampsAtTheToleranceBoundariesAreAccepted() {
    Duration tolerance = timestampTolerance().orElse(Duration.ofMinutes(5));
    byte[] body = utf8(validBody());
    for (Instant signedAt : List.of(NOW.minus(tolerance), NOW, NOW.plus(tolerance))) {
      WebhookEvent event = adapter().verify(sign(secretValue("primary"), body, signedAt), secrets("primary"), clock());
      assertEquals(Optional.of("primary"), event.secretId(), "signed at " + signedAt);
    }
  }

  // ---------------------------------------------------------------- secrecy, discovery, threads

  @Test
  public void rejectionMessagesNeverContainSecretsSignaturesOrBodies() {
    byte[] body = utf8(validBody());
    InboundDelivery signed = sign(secretValue("primary"), body, NOW);
    byte[] tampered = body.clone();
    tampered[0] ^= 0x01;
    List<DeliveryRejectedException> rejections = new ArrayList<>();
    rejections.add(rejection(withBody(signed, tampered), secrets("primary", "old")));
    rejections.add(rejection(sign(secretValue("stranger"), body, NOW), secrets("primary", "old")));
    rejections.add(rejection(withHeader(signed, signatureHeader(), garbledSignature()), secrets("primary")));
    rejections.add(rejection(withHeader(signed, signatureHeader(), null), secrets("primary")));
    rejections.add(rejection(signed, Secrets.none()));
    timestampTolerance().ifPresent(t ->
        rejections.add(rejection(sign(secretValue("primary"), body, NOW.minus(t).minusSeconds(60)), secrets("primary"))));
    for (DeliveryRejectedException e : rejections) {
      assertNoLeak(e, signed, body);
    }
  }

  @Test
  public void adapterIdIsLowerCaseAndTheAdapterIsFoundByServiceLoader() {
    ProviderAdapter adapter = adapter();
    assertTrue(ID.matcher(adapter.id()).matches(), "id '" + adapter.id() + "' must be lower case: " + ID);
    List<String> found = new ArrayList<>();
    Optional<ProviderAdapter> loaded = Optional.empty();
    for (ServiceLoader.Provider<ProviderAdapter> provider : ServiceLoader.load(ProviderAdapter.class).stream().toList()) {
      found.add(provider.type().getName());
      if (provider.type() == adapter.getClass()) {
        loaded = Optional.of(provider.get());
      }
    }
    assertTrue(loaded.isPresent(),
        adapter.getClass().getName() + " is not listed in META-INF/services/" + ProviderAdapter.class.getName()
            + " (found " + found + ")");
    assertEquals(adapter.id(), loaded.get().id());
  }

  @Test
  public void verificationIsThreadSafe() throws Exception {
    byte[] body = utf8(validBody());
    InboundDelivery good = sign(secretValue("old"), body, NOW);
    byte[] tampered = body.clone();
    tampered[body.length / 2] ^= 0x01;
    InboundDelivery bad = withBody(good, tampered);
    ProviderAdapter adapter = adapter();
    Secrets rotating = secrets("new", "old");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        boolean valid = i % 2 == 0;
        results.add(pool.submit(() -> {
          try {
            return adapter.verify(valid ? good : bad, rotating, clock()).secretId().orElse("none");
          } catch (DeliveryRejectedException e) {
            return e.reason().name();
          }
        }));
      }
      for (int i = 0; i < results.size(); i++) {
        assertEquals(i % 2 == 0 ? "old" : "SIGNATURE_MISMATCH", results.get(i).get(), "verification " + i);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---------------------------------------------------------------- helpers for subclasses

  /** Secrets with the given names as ids and {@link #secretValue} values, tried in that order. */
  protected final Secrets secrets(String... names) {
    Secrets.Builder builder = Secrets.builder();
    for (String name : names) {
      builder.add(secret(name, secretValue(name)));
    }
    return builder.build();
  }

  /**
   * Verifies, expects a rejection with {@code reason}, checks it leaks nothing, and returns it for
   * further assertions.
   */
  protected final DeliveryRejectedException expectRejection(
      InboundDelivery delivery, Secrets secrets, RejectionReason reason) {
    DeliveryRejectedException e = rejection(delivery, secrets);
    assertEquals(reason, e.reason(), "reason (message: " + e.getMessage() + ")");
    assertNoLeak(e, delivery, delivery.bodyBytes());
    return e;
  }

  /** Verifies and expects any rejection, with a non-empty message. */
  protected final DeliveryRejectedException rejection(InboundDelivery delivery, Secrets secrets) {
    DeliveryRejectedException e =
        assertThrows(DeliveryRejectedException.class, () -> adapter().verify(delivery, secrets, clock()));
    assertNotNull(e.getMessage());
    assertFalse(e.getMessage().isBlank(), "rejection message");
    return e;
  }

  /** The delivery with its body replaced, headers kept. */
  public static InboundDelivery withBody(InboundDelivery delivery, byte[] body) {
    return InboundDelivery.of(delivery.method(), delivery.path(), delivery.headers(), body);
  }

  /** The delivery with header {@code name} replaced by {@code value}, or removed when it is null. */
  public static InboundDelivery withHeader(InboundDelivery delivery, String name, String value) {
    HttpHeaders.Builder headers = HttpHeaders.builder();
    String key = name.toLowerCase(Locale.ROOT);
    delivery.headers().asMap().forEach((n, values) -> {
      if (!n.equals(key)) {
        values.forEach(v -> headers.add(n, v));
      }
    });
    if (value != null) {
      headers.add(name, value);
    }
    return InboundDelivery.of(delivery.method(), delivery.path(), headers.build(), delivery.bodyBytes());
  }

  protected static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private void assertNoLeak(DeliveryRejectedException e, InboundDelivery delivery, byte[] body) {
    List<String> forbidden = new ArrayList<>();
    for (String name : List.of("primary", "old", "new", "stranger")) {
      forbidden.add(secretValue(name));
    }
    delivery.headers().first(signatureHeader()).filter(s -> s.length() >= 8).ifPresent(forbidden::add);
    String text = new String(body, StandardCharsets.UTF_8);
    if (text.length() >= 16) {
      forbidden.add(text);
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = String.valueOf(t.getMessage());
      for (String value : forbidden) {
        assertFalse(message.contains(value), "rejection message leaks a secret, signature or body: " + e.reason());
      }
    }
  }
}
