package dev.hookledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HttpHeadersTest {

  @Test
  void nullArgumentsAreRefusedByName() {
    assertEquals("headers", assertThrows(NullPointerException.class, () -> HttpHeaders.of(null)).getMessage());
    assertEquals("name", assertThrows(NullPointerException.class, () -> HttpHeaders.builder().add(null, "v")).getMessage());
  }

  @Test
  void namesAreCaseInsensitiveAndValuesKeepArrivalOrder() {
    HttpHeaders headers = HttpHeaders.builder()
        .add("Stripe-Signature", "t=1,v1=a").add("X-Custom", "one").add("x-custom", "two").build();
    assertEquals(Optional.of("t=1,v1=a"), headers.first("stripe-signature"));
    assertEquals(Optional.of("t=1,v1=a"), headers.first("STRIPE-SIGNATURE"));
    assertEquals(List.of("one", "two"), headers.all("X-CUSTOM"));
    assertTrue(headers.contains("x-CUSTOM"));
    assertEquals(List.of("stripe-signature", "x-custom"), List.copyOf(headers.asMap().keySet()));
  }

  @Test
  void absentHeaderIsEmptyNeverNull() {
    assertEquals(Optional.empty(), HttpHeaders.empty().first("a"));
    assertEquals(List.of(), HttpHeaders.empty().all("a"));
    assertFalse(HttpHeaders.of(Map.of("b", "1")).contains("a"));
  }

  @Test
  void toStringShowsNamesButNeverValues() {
    HttpHeaders headers = HttpHeaders.of(Map.of("X-Hub-Signature-256", "sha256=deadbeef"));
    assertEquals("HttpHeaders[x-hub-signature-256]", headers.toString());
  }

  @Test
  void builtHeadersAreImmutable() {
    HttpHeaders.Builder builder = HttpHeaders.builder().add("a", "1");
    HttpHeaders headers = builder.build();
    builder.add("a", "2");
    assertEquals(List.of("1"), headers.all("a"));
    assertThrows(UnsupportedOperationException.class, () -> headers.asMap().put("b", List.of()));
    assertThrows(UnsupportedOperationException.class, () -> headers.all("a").add("3"));
    assertEquals("value", assertThrows(NullPointerException.class, () -> builder.add("a", null)).getMessage());
  }
}
