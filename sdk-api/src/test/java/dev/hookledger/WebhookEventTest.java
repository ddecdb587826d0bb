package dev.hookledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WebhookEventTest {
  record Invoice(String id, long amount) {}

  @Test
  void requiredFieldsAreCheckedByName() {
    assertEquals("provider", assertThrows(NullPointerException.class, () -> minimal().provider(null).build()).getMessage());
    assertEquals("eventId must not be empty",
        assertThrows(IllegalArgumentException.class, () -> minimal().eventId("").build()).getMessage());
    assertEquals("body", assertThrows(NullPointerException.class, () -> minimal().body(null).build()).getMessage());
    assertEquals("entityVersion needs an entityKey",
        assertThrows(IllegalArgumentException.class, () -> minimal().entityVersion(1L).build()).getMessage());
    assertEquals("name", assertThrows(NullPointerException.class, () -> minimal().header(null, "v")).getMessage());
  }

  @Test
  void optionalFieldsAreEmptyAndScopeIsNeverNull() {
    WebhookEvent event = minimal().build();
    assertEquals("", event.scope());
    assertEquals(Optional.empty(), event.apiVersion());
    assertTrue(event.entityVersion().isEmpty());
    assertEquals(Optional.empty(), event.secretId());
    assertFalse(event.payloadWrapped());
  }

  @Test
  void payloadIsMappedToRecords() {
    WebhookEvent event = minimal().body(utf8("{\"id\":\"in_1\",\"amount\":4200,\"extra\":true}")).build();
    assertEquals(new Invoice("in_1", 4200), event.payloadAs(Invoice.class));
  }

  @Test
  void eachCallerGetsAPayloadOfItsOwnSoChangingItChangesNothingForTheEvent() {
    WebhookEvent event = minimal().body(utf8("{\"id\":\"in_1\",\"amount\":4200}")).build();
    JsonNode first = event.payload();
    ((ObjectNode) first).put("amount", 0);
    ((ObjectNode) first).remove("id");

    assertNotSame(first, event.payload());
    assertEquals("{\"id\":\"in_1\",\"amount\":4200}", event.payload().toString());
    assertEquals(new Invoice("in_1", 4200), event.payloadAs(Invoice.class));
  }

  @Test
  void wrappedPayloadIsReadFromItsOwnBytes() {
    WebhookEvent event = minimal().body(utf8("payload=%7B%7D")).payloadJson(utf8("{\"a\":1}")).build();
    assertTrue(event.payloadWrapped());
    assertEquals(1, event.payload().get("a").asInt());
    assertArrayEquals(utf8("payload=%7B%7D"), event.body());
  }

  @Test
  void payloadErrorsNeverQuoteTheBody() {
    WebhookEvent notJson = minimal().body(utf8("card_4242424242424242 secret")).build();
    WebhookException parse = assertThrows(WebhookException.class, notJson::payload);
    assertEquals("payload of acme event evt_1 is not JSON: malformed JSON at line 1, column 1", parse.getMessage());

    WebhookEvent wrongType = minimal().body(utf8("{\"id\":\"in_1\",\"amount\":\"4242-secret\"}")).build();
    WebhookException mapping = assertThrows(WebhookException.class, () -> wrongType.payloadAs(Invoice.class));
    assertFalse(mapping.getMessage().contains("4242"), mapping.getMessage());
    assertTrue(mapping.getMessage().startsWith("payload of acme event evt_1 cannot be read as " + Invoice.class.getName()
        + ": cannot read long at "), mapping.getMessage());
  }

  @Test
  void evidenceHeadersAreLowerCasedAndToStringShowsIdentityOnly() {
    WebhookEvent event = minimal().scope("acct_1").header("X-GitHub-Event", "issues").build();
    assertEquals(Map.of("x-github-event", "issues"), event.headers());
    assertEquals("acme event evt_1 (acct_1) thing.created", event.toString());
  }

  @Test
  void toBuilderCopiesEveryFieldAndLeavesTheEventUnchanged() throws Exception {
    WebhookEvent event = full().build();
    event.payload(); // parsed once: the copy must still read the same payload
    WebhookEvent copy = event.toBuilder().build();

    // every public accessor, so that a field added later and missed by toBuilder() fails here
    for (Method accessor : WebhookEvent.class.getDeclaredMethods()) {
      if (!Modifier.isPublic(accessor.getModifiers()) || Modifier.isStatic(accessor.getModifiers())
          || accessor.getParameterCount() != 0 || accessor.getName().equals("toBuilder")) {
        continue;
      }
      Object original = accessor.invoke(event);
      assertNotEquals(Optional.empty(), original, accessor.getName() + ": the fixture must set every field");
      if (original instanceof byte[] bytes) {
        assertArrayEquals(bytes, (byte[]) accessor.invoke(copy), accessor.getName());
      } else {
        assertEquals(original, accessor.invoke(copy), accessor.getName());
      }
    }

    WebhookEvent changed = event.toBuilder().type("thing.deleted").header("X-Other", "1").build();
    assertEquals("thing.deleted", changed.type());
    assertEquals(Map.of("x-acme-event", "thing.created", "x-other", "1"), changed.headers());
    assertEquals("thing.created", event.type());
    assertEquals(Map.of("x-acme-event", "thing.created"), event.headers());
  }

  @Test
  void aCopyGivenNewBytesReadsItsPayloadFromThem() {
    WebhookEvent event = minimal().body(utf8("{\"id\":\"in_1\",\"amount\":1}")).build();
    assertEquals(new Invoice("in_1", 1), event.payloadAs(Invoice.class)); // the tree is parsed and cached

    WebhookEvent newBody = event.toBuilder().body(utf8("{\"id\":\"in_1\",\"amount\":2}")).build();
    assertEquals(new Invoice("in_1", 2), newBody.payloadAs(Invoice.class));
    assertFalse(newBody.payloadWrapped(), "an unwrapped payload follows the new body");

    WebhookEvent wrapped = minimal().body(utf8("payload=%7B%7D")).payloadJson(utf8("{\"a\":1}")).build();
    assertEquals(1, wrapped.payload().get("a").asInt());
    WebhookEvent rewrapped = wrapped.toBuilder().payloadJson(utf8("{\"a\":2}")).build();
    assertTrue(rewrapped.payloadWrapped());
    assertEquals(2, rewrapped.payload().get("a").asInt());
    assertArrayEquals(utf8("payload=%7B%7D"), rewrapped.body());
    assertEquals(1, wrapped.toBuilder().build().payload().get("a").asInt());
  }

  private static WebhookEvent.Builder full() {
    return minimal().scope("acct_1").apiVersion("2024-06-20").entityKey("thing:th_1").entityVersion(7L)
        .occurredAt(Instant.parse("2026-12-01T10:00:00Z")).livemode(true).deliveryId("dlv_1").secretId("current")
        .signedAt(Instant.parse("2026-12-01T10:00:01Z")).header("X-Acme-Event", "thing.created")
        .body(utf8("payload=%7B%7D")).payloadJson(utf8("{\"id\":\"th_1\"}"));
  }

  private static WebhookEvent.Builder minimal() {
    return WebhookEvent.builder().provider("acme").eventId("evt_1").type("thing.created").body(utf8("{}"));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
