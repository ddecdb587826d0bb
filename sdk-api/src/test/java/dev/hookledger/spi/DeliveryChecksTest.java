package dev.hookledger.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The common checks and the shared rejection wording. */
class DeliveryChecksTest {
  private static final Instant NOW = Instant.parse("2024-06-01T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW.plusMillis(999), ZoneOffset.UTC);
  private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);

  @Test
  void toleranceIsInclusiveAndTwoSidedInWholeSeconds() {
    DeliveryChecks.requireWithinTolerance(NOW.minusSeconds(300), CLOCK, FIVE_MINUTES, "ts");
    DeliveryChecks.requireWithinTolerance(NOW.plusSeconds(300), CLOCK, FIVE_MINUTES, "ts");
    assertEquals(
        "ts is 301 s old, 1 s beyond the tolerance of 300 s: the delivery may be a replay, or this server's clock"
            + " is behind (check NTP)",
        rejected(RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE,
            () -> DeliveryChecks.requireWithinTolerance(NOW.minusSeconds(301), CLOCK, FIVE_MINUTES, "ts")));
    assertEquals(
        "ts is 420 s in the future, 120 s beyond the tolerance of 300 s: this server's clock is behind the"
            + " sender's, or the timestamp was forged (check NTP)",
        rejected(RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE,
            () -> DeliveryChecks.requireWithinTolerance(NOW.plusSeconds(420), CLOCK, FIVE_MINUTES, "ts")));
  }

  @Test
  void emptyWhitespaceAndInvalidJsonAreMalformedWithoutQuotingTheBody() {
    assertEquals("the body is empty; the signature holds, but there is no JSON to read",
        rejected(RejectionReason.MALFORMED, () -> DeliveryChecks.parseJson(new byte[0], "the body")));
    assertEquals("the body cannot be read: empty document; the signature holds, so the sender signed it as is",
        rejected(RejectionReason.MALFORMED, () -> DeliveryChecks.parseJson(utf8("  \n"), "the body")));
    assertEquals(
        "the body cannot be read: malformed JSON at line 2, column 25; the signature holds, so the sender signed it as is",
        rejected(RejectionReason.MALFORMED, () -> DeliveryChecks.parseJson(utf8("{\n\"card\": 4242424242424242x}"), "the body")));
  }

  @Test
  void bodyOverTheLimitIsTooLarge() {
    InboundDelivery d = InboundDelivery.post("/w", HttpHeaders.empty(), "12345");
    DeliveryChecks.requireWithinLimit(d, 5, "acme");
    assertEquals("acme body of 5 bytes exceeds the limit of 4 bytes",
        rejected(RejectionReason.TOO_LARGE, () -> DeliveryChecks.requireWithinLimit(d, 4, "acme")));
  }

  @Test
  void missingSecretsNameTheTenantSafely() {
    DeliveryChecks.requireSecrets(Secrets.of("x"), "acme", "");
    assertEquals("no acme webhook secret is configured, so the delivery cannot be verified",
        rejected(RejectionReason.NO_SECRET_CONFIGURED, () -> DeliveryChecks.requireSecrets(Secrets.none(), "acme", "")));
    assertEquals("no acme webhook secret is configured for tenant 'shop?INFO forged line', so the delivery cannot be verified",
        rejected(RejectionReason.NO_SECRET_CONFIGURED,
            () -> DeliveryChecks.requireSecrets(Secrets.none(), "acme", "shop\nINFO forged line")));
  }

  @Test
  void printableStripsControlCharactersAndTruncates() {
    assertEquals("a?b", Rejections.printable("a\u0000b"));
    assertEquals("x".repeat(64) + "...", Rejections.printable("x".repeat(100)));
  }

  @Test
  void sharedMessagesReadTheSameForEveryProvider() {
    assertEquals("Acme-Signature header is missing: hint", Rejections.signatureMissing("Acme-Signature", "hint").getMessage());
    assertEquals("Acme-Signature is odd", Rejections.signatureMalformed("Acme-Signature", "is odd").getMessage());
    assertEquals(
        "Acme-Signature matches none of the 2 configured secrets (ids a, b): the body was probably re-encoded or"
            + " parsed by a framework before verification (verify the exact raw bytes), or the secret is wrong",
        Rejections.signatureMismatch("Acme-Signature", Secrets.builder().add("a", "1").add("b", "2").build(), "")
            .getMessage());
  }

  private static String rejected(RejectionReason reason, Executable call) {
    DeliveryRejectedException e = assertThrows(DeliveryRejectedException.class, call);
    assertEquals(reason, e.reason());
    assertEquals(reason.httpStatus(), e.httpStatus());
    return e.getMessage();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
