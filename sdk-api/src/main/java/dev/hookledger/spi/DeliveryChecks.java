package dev.hookledger.spi;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.internal.Json;
import dev.hookledger.spi.json.JsonSelection;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The checks every adapter makes around its signature scheme: body size, secrets present, a
 * two-sided timestamp window, and JSON parsed only once the signature holds. Each failure is a
 * {@link DeliveryRejectedException} built by {@link Rejections}.
 */
public final class DeliveryChecks {
  private DeliveryChecks() {}

  /**
   * Checks a configured body limit, for adapter builders: returns it if it is at least 1.
   *
   * @throws IllegalArgumentException {@code maxBodyBytes must be >= 1, but was 0}
   */
  public static int requireBodyLimit(int maxBodyBytes) {
    if (maxBodyBytes < 1) {
      throw new IllegalArgumentException("maxBodyBytes must be >= 1, but was " + maxBodyBytes);
    }
    return maxBodyBytes;
  }

  /** Refuses a body over {@code limit} bytes with {@link RejectionReason#TOO_LARGE}. */
  public static void requireWithinLimit(InboundDelivery delivery, int limit, String provider) {
    if (delivery.bodyLength() > limit) {
      throw Rejections.tooLarge(provider, delivery.bodyLength(), limit);
    }
  }

  /** Refuses with {@link RejectionReason#NO_SECRET_CONFIGURED} when {@code secrets} is empty. */
  public static void requireSecrets(Secrets secrets, String provider, String tenant) {
    if (requireNonNull(secrets, "secrets").isEmpty()) {
      throw Rejections.noSecret(provider, tenant);
    }
  }

  /**
   * Refuses a signed timestamp further than {@code tolerance} from the clock's now, in either
   * direction, with {@link RejectionReason#TIMESTAMP_OUT_OF_TOLERANCE}. Judged in whole seconds,
   * as the providers' own SDKs do: with a tolerance of 300 s, a timestamp exactly 300 s old passes
   * and one 301 s old does not.
   *
   * @param what names the timestamp in the message ({@code "Stripe-Signature timestamp"})
   */
  public static void requireWithinTolerance(Instant signedAt, Clock clock, Duration tolerance, String what) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    long age = Duration.between(signedAt, now).getSeconds();
    long limit = tolerance.getSeconds();
    if (age > limit) {
      throw outOfTolerance(
          what + " is " + age + " s old, " + (age - limit) + " s beyond the tolerance of " + limit
              + " s: the delivery may be a replay, or this server's clock is behind (check NTP)");
    }
    if (-age > limit) {
      throw outOfTolerance(
          what + " is " + -age + " s in the future, " + (-age - limit) + " s beyond the tolerance of "
              + limit + " s: this server's clock is behind the sender's, or the timestamp was forged"
              + " (check NTP)");
    }
  }

  /**
   * Parses a verified body as JSON. An empty body or one that is not JSON is
   * {@link RejectionReason#MALFORMED}; the message gives the position, never the content.
   *
   * @param what names the document in the message ({@code "the Stripe body"})
   */
  public static JsonNode parseJson(byte[] json, String what) {
    if (json.length == 0) {
      throw Rejections.malformed(what + " is empty; the signature holds, but there is no JSON to read");
    }
    try {
      return Json.parse(json);
    } catch (IOException e) {
      // the cause is dropped on purpose: Jackson's own message can quote tokens of the body
      throw JsonSelection.unreadable(what, e);
    }
  }

  private static DeliveryRejectedException outOfTolerance(String message) {
    return new DeliveryRejectedException(RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE, message);
  }
}
