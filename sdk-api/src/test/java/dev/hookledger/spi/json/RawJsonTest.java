package dev.hookledger.spi.json;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class RawJsonTest {

  private static String text(byte[] bytes) {
    return new String(bytes, UTF_8);
  }

  @Test
  void elementsKeepTheirExactBytesIncludingWhitespaceNumberFormsAndMultiByteText() throws IOException {
    String first = "{\n    \"id\": \"evt_é€😀\",\n    \"amount\": 1.50,\n    \"nested\": {\"a\": [1, {\"b\": \"}\"}]}\n  }";
    String second = "{\"id\":\"evt_2\",\"big\":12345678901234567890}";
    byte[] doc = ("{\"object\":\"list\",\"skip\":{\"data\":[{\"x\":1}]},\"data\": [ " + first + " , " + second
        + " ],\"has_more\":false}").getBytes(UTF_8);

    List<byte[]> elements = RawJson.elements(doc, "data");

    assertEquals(2, elements.size());
    assertEquals(first, text(elements.get(0)));
    assertEquals(second, text(elements.get(1)));
  }

  @Test
  void elementsOfTheDocumentItselfWhenNoPathIsGiven() throws IOException {
    List<byte[]> elements = RawJson.elements("[{\"id\":1},[2]]".getBytes(UTF_8));

    assertEquals(List.of("{\"id\":1}", "[2]"), elements.stream().map(RawJsonTest::text).toList());
  }

  @Test
  void absentOrNullArrayHasNoElements() throws IOException {
    assertTrue(RawJson.elements("{\"data\":null}".getBytes(UTF_8), "data").isEmpty());
    assertTrue(RawJson.elements("{\"other\":[{}]}".getBytes(UTF_8), "data").isEmpty());
  }

  @Test
  void scalarElementIsRefusedWithItsPosition() {
    IOException e = assertThrows(IOException.class, () -> RawJson.elements("{\"data\":[{},\"x\"]}".getBytes(UTF_8), "data"));

    assertEquals("element 1 of 'data' is not an object or array", e.getMessage());
  }

  @Test
  void nonArrayIsRefused() {
    IOException e = assertThrows(IOException.class, () -> RawJson.elements("{\"data\":{}}".getBytes(UTF_8), "data"));

    assertEquals("'data' is not an array", e.getMessage());
  }

  @Test
  void valueAtANestedPathKeepsItsExactBytes() throws IOException {
    String payload = "{ \"action\" : \"opened\", \"issue\": {\"id\": 1, \"title\": \"ü\"} }";
    byte[] doc = ("{\"id\":7,\"request\":{\"headers\":{\"payload\":{}},\"payload\":" + payload + "},\"payload\":[]}")
        .getBytes(UTF_8);

    assertEquals(payload, text(RawJson.value(doc, "request", "payload").orElseThrow()));
  }

  @Test
  void valueIsEmptyWhenAbsentOrScalar() throws IOException {
    byte[] doc = "{\"request\":{\"payload\":null,\"n\":3}}".getBytes(UTF_8);

    assertTrue(RawJson.value(doc, "request", "payload").isEmpty());
    assertTrue(RawJson.value(doc, "request", "n").isEmpty());
    assertTrue(RawJson.value(doc, "request", "missing").isEmpty());
    assertTrue(RawJson.value(doc, "request", "n", "deeper").isEmpty());
  }
}
