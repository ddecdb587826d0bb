package dev.hookledger.runtime.internal.refusal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.HttpHeaders;
import dev.hookledger.runtime.RefusalCount;
import dev.hookledger.runtime.RefusalReason;
import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.RefusedDelivery;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.testing.SteppingClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RefusalLogTest {
  private final SteppingClock clock = new SteppingClock(Instant.parse("2026-12-01T03:00:00Z"));
  private final List<RefusedDelivery> told = new ArrayList<>();
  private final RefusalLog refusals = new RefusalLog(clock, new WebhookListener() {
    @Override
    public void refused(RefusedDelivery refused) {
      told.add(refused);
    }
  });

  @Test
  void warnsOncePerMinutePerProviderAndReasonWithTheCountSinceTheLastLine() {
    assertEquals(Optional.of("1 stripe delivery refused (SIGNATURE_MISMATCH, answered 401); the last from 10.0.0.9"
        + " to /webhooks/stripe"), refuse("stripe", RefusalReason.SIGNATURE_MISMATCH));
    clock.advance(Duration.ofSeconds(20));
    assertEquals(Optional.empty(), refuse("stripe", RefusalReason.SIGNATURE_MISMATCH));
    assertTrue(refuse("stripe", RefusalReason.TIMESTAMP_OUT_OF_TOLERANCE).isPresent(), "another reason, own line");
    assertTrue(refuse("github", RefusalReason.SIGNATURE_MISMATCH).isPresent(), "another provider, own line");
    clock.advance(Duration.ofSeconds(39));
    assertEquals(Optional.empty(), refuse("stripe", RefusalReason.SIGNATURE_MISMATCH));
    clock.advance(Duration.ofSeconds(1));

    assertEquals(Optional.of("3 stripe deliveries refused (SIGNATURE_MISMATCH, answered 401) in the last 60 s;"
        + " the last from 10.0.0.9 to /webhooks/stripe"), refuse("stripe", RefusalReason.SIGNATURE_MISMATCH));
    assertEquals(List.of(new RefusalCount("github", RefusalReason.SIGNATURE_MISMATCH, 1),
        new RefusalCount("stripe", RefusalReason.SIGNATURE_MISMATCH, 4),
        new RefusalCount("stripe", RefusalReason.TIMESTAMP_OUT_OF_TOLERANCE, 1)), refusals.snapshot().counts());
    assertEquals(6, told.size(), "the listener hears every refusal, logged or not");
  }

  @Test
  void keepsTheLastHundredNewestFirstAndCountsThemAll() {
    for (int i = 0; i < 250; i++) {
      clock.advance(Duration.ofSeconds(1));
      refusals.refused("stripe", RefusalReason.MALFORMED, RequestFacts.of("10.0.0." + i, "/webhooks/stripe",
          HttpHeaders.empty()));
    }

    RefusedDeliveries snapshot = refusals.snapshot();
    assertEquals(250, snapshot.total());
    assertEquals(RefusedDeliveries.RECENT, snapshot.recent().size());
    assertEquals("10.0.0.249", snapshot.recent().get(0).remoteAddress());
    assertEquals("10.0.0.150", snapshot.recent().get(99).remoteAddress());
  }

  @Test
  void keepsHeaderNamesButNeverTheValuesOfHeadersThatMayCarryASecret() {
    HttpHeaders headers = HttpHeaders.builder()
        .add("Content-Type", "application/json")
        .add("Stripe-Signature", "t=1,v1=abc")
        .add("X-Hub-Signature-256", "sha256=abc")
        .add("X-Shopify-Hmac-Sha256", "abc=")
        .add("Authorization", "Bearer abc")
        .add("X-Api-Key", "abc")
        .add("X-GitHub-Delivery", "72d3162e")
        .add("User-Agent", "evil\u001b[31m\nforged: yes")
        .build();

    Map<String, String> kept = RequestFacts.of("10.0.0.9", "/webhooks/stripe", headers).headers();

    // names as HttpHeaders keeps them: lower case
    assertEquals(Map.of("content-type", "application/json", "stripe-signature", RefusedDelivery.HIDDEN,
        "x-hub-signature-256", RefusedDelivery.HIDDEN, "x-shopify-hmac-sha256", RefusedDelivery.HIDDEN,
        "authorization", RefusedDelivery.HIDDEN, "x-api-key", RefusedDelivery.HIDDEN,
        "x-github-delivery", "72d3162e", "user-agent", "evil?[31m?forged: yes"), Map.copyOf(kept));
    assertFalse(kept.values().stream().anyMatch(v -> v.contains("abc")));
  }

  @Test
  void boundsWhatOneRequestCanMakeItKeep() {
    HttpHeaders.Builder many = HttpHeaders.builder();
    for (int i = 0; i < 500; i++) {
      many.add("X-H" + i, "v".repeat(10_000));
    }

    RequestFacts facts = RequestFacts.of("10.0.0.9", "/webhooks/" + "p".repeat(10_000), many.build());

    assertEquals(RequestFacts.MAX_HEADERS, facts.headers().size());
    assertEquals(RequestFacts.MAX_TEXT + 1, facts.path().length());
    assertTrue(facts.headers().values().stream().allMatch(v -> v.length() == RequestFacts.MAX_TEXT + 1));
  }

  private Optional<String> refuse(String provider, RefusalReason reason) {
    return refusals.refused(provider, reason, RequestFacts.of("10.0.0.9", "/webhooks/" + provider, HttpHeaders.empty()));
  }
}
