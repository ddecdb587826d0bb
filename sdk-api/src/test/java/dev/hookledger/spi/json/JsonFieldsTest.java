package dev.hookledger.spi.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.RejectionReason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JsonFieldsTest {

  @Test
  void integerIdsAreReadExactlyAtAnySize() throws Exception {
    JsonNode node = parse("{\"long\":820982911946154508,\"big\":123456789012345678901234567890,\"s\":\"x\",\"e\":\"\",\"f\":1.5}");
    assertEquals("820982911946154508", JsonFields.text(node, "long"));
    assertEquals("123456789012345678901234567890", JsonFields.text(node, "big"));
    assertEquals("x", JsonFields.text(node, "s"));
    assertNull(JsonFields.text(node, "e"), "empty strings count as absent");
    assertNull(JsonFields.text(node, "f"), "fractions are not ids");
  }

  @Test
  void timestampsKeepTheirOffsetAndFractionUpToMicroseconds() throws Exception {
    JsonNode node = parse("{\"a\":\"2024-09-10T11:14:00-04:00\",\"b\":\"2025-03-11T20:54:30.516267807Z\",\"n\":null}");
    assertEquals(Instant.parse("2024-09-10T15:14:00Z"), JsonFields.isoInstant(node, "a", "doc"));
    assertEquals(1_741_726_470_516_267L, JsonFields.micros(JsonFields.isoInstant(node, "b", "doc")));
    assertNull(JsonFields.isoInstant(node, "n", "doc"));
    assertNull(JsonFields.isoInstant(node, "missing", "doc"));
  }

  @Test
  void missingOrWrongFieldsAreMalformedAndNamed() throws Exception {
    JsonNode node = parse("{\"t\":5,\"u\":\"2024-01-01\"}");
    assertEquals("doc has no 'id' (a non-empty string or integer is required)", malformed(() -> JsonFields.requiredText(node, "id", "doc")));
    assertEquals("doc field 't' is not an ISO-8601 timestamp string", malformed(() -> JsonFields.isoInstant(node, "t", "doc")));
    assertEquals("doc field 'u' is not an ISO-8601 timestamp with an offset", malformed(() -> JsonFields.isoInstant(node, "u", "doc")));
    assertEquals("doc must be a JSON object, but is a JSON array", malformed(() -> JsonFields.requireObject(parse("[]"), "doc")));
  }

  private static String malformed(org.junit.jupiter.api.function.Executable call) {
    DeliveryRejectedException e = assertThrows(DeliveryRejectedException.class, call);
    assertEquals(RejectionReason.MALFORMED, e.reason());
    return e.getMessage();
  }

  private static JsonNode parse(String json) throws Exception {
    return JsonDocuments.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @org.junit.jupiter.api.Test
  void microsAreExactBeyondTheYear2262WhereNanosecondsOverflow() {
    assertEquals(78_879_052_800_000_000L, JsonFields.micros(java.time.Instant.parse("4469-07-30T00:00:00Z")));
    assertEquals(253_402_300_799_999_999L, JsonFields.micros(java.time.Instant.parse("9999-12-31T23:59:59.999999999Z")));
    assertEquals(-62_135_596_800_000_000L, JsonFields.micros(java.time.Instant.parse("0001-01-01T00:00:00Z")));
  }

  @org.junit.jupiter.api.Test
  void orderingInstantReadsIsoAndUnixSecondsAndNothingElse() throws Exception {
    com.fasterxml.jackson.databind.JsonNode node = JsonDocuments.parse(("{\"iso\":\"2024-06-01T12:00:00+02:00\",\"unix\":1717243200,"
        + "\"text\":\"soon\",\"bool\":true,\"far\":\"+99999-01-01T00:00:00Z\",\"huge\":99999999999999999999,"
        + "\"null\":null}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(java.time.Instant.parse("2024-06-01T10:00:00Z"), JsonFields.orderingInstant(node, "iso", "t"));
    assertEquals(java.time.Instant.ofEpochSecond(1717243200), JsonFields.orderingInstant(node, "unix", "t"));
    for (String field : new String[] {"text", "bool", "far", "huge", "null", "absent"}) {
      assertEquals(null, JsonFields.orderingInstant(node, field, "t"), field);
    }
  }
}
