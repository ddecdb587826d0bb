package dev.hookledger.spi.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.RejectionReason;
import dev.hookledger.internal.Timestamps;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads identity fields out of a parsed payload, for an adapter and its replay source. A missing required field is a {@link RejectionReason#MALFORMED}
 * rejection whose message names the field and never quotes the payload.
 */
public final class JsonFields {
  private static final Logger log = LoggerFactory.getLogger(JsonFields.class);
  /** The range an ordering timestamp must fall in: years 1 to 9999, which microseconds hold. */
  private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
  private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

  private JsonFields() {}

  /** The node itself when it is a JSON object; otherwise a rejection naming {@code what}. */
  public static JsonNode requireObject(JsonNode node, String what) {
    if (!node.isObject()) {
      throw malformed(what + " must be a JSON object, but is a JSON " + typeOf(node));
    }
    return node;
  }

  /**
   * The text of a string or integer field; empty strings and other node types count as absent.
   * Integers are read exactly (ids above 2^53 stay exact: Jackson keeps them as long or BigInteger).
   */
  public static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !(value.isTextual() || value.isIntegralNumber())) {
      return null;
    }
    String text = value.asText();
    return text.isEmpty() ? null : text;
  }

  /** Like {@link #text} but the field must be there; {@code what} names the document in the message. */
  public static String requiredText(JsonNode node, String field, String what) {
    String text = text(node, field);
    if (text == null) {
      throw malformed(what + " has no '" + field + "' (a non-empty string or integer is required)");
    }
    return text;
  }

  /**
   * An ISO-8601 timestamp with offset ({@code 2024-09-10T11:14:00-04:00}, {@code 2011-04-22T13:33:48Z},
   * fractions up to nanoseconds), or null when the field is absent or JSON null.
   */
  public static Instant isoInstant(JsonNode node, String field, String what) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw malformed(what + " field '" + field + "' is not an ISO-8601 timestamp string");
    }
    return parseIso(value.asText(), what + " field '" + field + "'");
  }

  /**
   * A timestamp used only to order or display an event, read as it comes: an ISO-8601 string with
   * offset, or integer Unix seconds (GitHub's {@code installation} payloads). Null when the field is
   * absent or JSON null; null too, with a WARN naming the field (never its value), when it is of
   * another JSON type, does not parse, or lies outside the years 1 to 9999. A verified delivery is
   * never refused over such a field: it is recorded without the version the field would have given.
   *
   * @param what names the document in the warning ({@code "the GitHub payload installation"})
   */
  public static Instant orderingInstant(JsonNode node, String field, String what) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (value.isTextual()) {
      return orderingInstant(value.asText(), what + " field '" + field + "'");
    }
    Instant instant = null;
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      long seconds = value.longValue();
      if (seconds >= EARLIEST.getEpochSecond() && seconds <= LATEST.getEpochSecond()) {
        instant = Instant.ofEpochSecond(seconds);
      }
    }
    if (instant == null) {
      unusable(what + " field '" + field + "'", "a JSON " + typeOf(value) + " that is not a timestamp");
    }
    return instant;
  }

  /**
   * As {@link #orderingInstant(JsonNode, String, String)} for a timestamp in text (a header):
   * ISO-8601 with offset within the years 1 to 9999, else null with a WARN naming {@code what}.
   */
  public static Instant orderingInstant(String text, String what) {
    Instant instant;
    try {
      instant = Timestamps.parseOffsetDateTime(text.trim());
    } catch (DateTimeParseException e) {
      unusable(what, "not an ISO-8601 timestamp with an offset");
      return null;
    }
    if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
      unusable(what, "outside the years 1 to 9999");
      return null;
    }
    return instant;
  }

  private static void unusable(String what, String problem) {
    log.warn("{} is {}: the verified delivery is recorded without the ordering version it would give", what, problem);
  }

  /** Parses an ISO-8601 / RFC 3339 timestamp with offset; {@code what} names it in the error. */
  static Instant parseIso(String text, String what) {
    try {
      return Timestamps.parseOffsetDateTime(text.trim());
    } catch (DateTimeParseException e) {
      throw malformed(what + " is not an ISO-8601 timestamp with an offset");
    }
  }

  /**
   * Microseconds since the epoch, the unit of every built-in adapter's entity version. Computed
   * from seconds: {@code ChronoUnit.MICROS.between} goes through nanoseconds, which overflow a long
   * after the year 2262 (a signed {@code updated_at} of 4431 threw instead of ordering; found by
   * fuzzing). Exact for the years 1 to 9999 that {@link #orderingInstant} admits.
   */
  public static long micros(Instant instant) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  /** The JSON type of a node, for messages ("array", "string", ...), never its value. */
  static String typeOf(JsonNode node) {
    return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
  }

  static DeliveryRejectedException malformed(String message) {
    return new DeliveryRejectedException(RejectionReason.MALFORMED, message);
  }
}
