package dev.hookledger.samples.bench;

import dev.hookledger.InboundDelivery;
import dev.hookledger.samples.app.ExpectedState;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.SampleSigners;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * What the benchmark sends: distinct events spread over the three providers (Stripe invoices,
 * GitHub pushes, Shopify orders), each delivered once, plus redeliveries of randomly chosen ones,
 * all in a shuffled order. Deterministic for a given seed. Immutable.
 */
final class LoadPlan {
  private final List<Event> events;
  private final List<Integer> sendOrder;

  /** One distinct event; its body is fixed, its signature made when it is sent. */
  private record Event(String provider, String kind, String id, String body) {}

  private LoadPlan(List<Event> events, List<Integer> sendOrder) {
    this.events = events;
    this.sendOrder = sendOrder;
  }

  /**
   * A plan of {@code deliveries} deliveries of which about {@code duplicateRatio} are redeliveries.
   *
   * @throws IllegalArgumentException if {@code deliveries < 1} or the ratio is outside [0, 0.9]
   */
  static LoadPlan of(int deliveries, double duplicateRatio, long seed, Clock clock) {
    if (deliveries < 1) {
      throw new IllegalArgumentException("deliveries must be >= 1, but was " + deliveries);
    }
    if (!(duplicateRatio >= 0 && duplicateRatio <= 0.9)) {
      throw new IllegalArgumentException("duplicate ratio must be between 0 and 0.9, but was " + duplicateRatio);
    }
    int distinct = Math.max(1, (int) Math.round(deliveries * (1 - duplicateRatio)));
    Random random = new Random(seed);
    Instant now = clock.instant();
    List<Event> events = new ArrayList<>(distinct);
    for (int i = 0; i < distinct; i++) {
      events.add(event(i, seed, now));
    }
    List<Integer> order = new ArrayList<>(deliveries);
    for (int i = 0; i < deliveries; i++) {
      order.add(i < distinct ? i : random.nextInt(distinct));
    }
    Collections.shuffle(order, random);
    return new LoadPlan(List.copyOf(events), List.copyOf(order));
  }

  private static Event event(int i, long seed, Instant now) {
    return switch (i % 3) {
      case 0 -> {
        String id = "evt_bench_" + seed + "_" + i;
        yield new Event("stripe", "invoice.paid", id,
            SampleEvents.invoicePaid(id, "in_bench_" + i, customer(i), amount(i), "usd", now));
      }
      case 1 -> new Event("github", "push", UUID.nameUUIDFromBytes((seed + "/" + i).getBytes()).toString(),
          SampleEvents.push(repository(i), String.format("%040x", (long) i), commits(i)));
      default -> new Event("shopify", "orders/create", UUID.nameUUIDFromBytes((seed + "#" + i).getBytes()).toString(),
          SampleEvents.order(orderId(i), "#" + i, total(i), "paid", now));
    };
  }

  private static String customer(int i) {
    return "cus_bench_" + (i % 50);
  }

  private static long amount(int i) {
    return 100 + (i % 900);
  }

  private static String repository(int i) {
    return "bench/repo-" + (i % 10);
  }

  private static int commits(int i) {
    return 1 + (i % 5);
  }

  private static long orderId(int i) {
    return 5_000_000_000L + i;
  }

  private static String total(int i) {
    return (10 + i % 90) + ".00";
  }

  int deliveries() {
    return sendOrder.size();
  }

  int distinctEvents() {
    return events.size();
  }

  /** The {@code n}-th delivery of the plan, signed now. */
  InboundDelivery delivery(int n, SampleSigners sign, Instant now) {
    Event e = events.get(sendOrder.get(n));
    return switch (e.provider()) {
      case "stripe" -> sign.stripe(e.body(), now);
      case "github" -> sign.github(e.kind(), e.id(), e.body());
      default -> sign.shopify(e.kind(), e.id(), e.body());
    };
  }

  /** The size of this plan's first event's body, in bytes: what a delivery carries. */
  int typicalBodyBytes() {
    return events.get(0).body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
  }

  /** The state the distinct events must leave behind, each applied exactly once. */
  ExpectedState expected() {
    ExpectedState expected = new ExpectedState();
    addExpected(expected);
    return expected;
  }

  /** Adds what the distinct events must do, each applied exactly once, to {@code expected}. */
  void addExpected(ExpectedState expected) {
    for (int i = 0; i < events.size(); i++) {
      switch (i % 3) {
        case 0 -> expected.invoicePaid(customer(i), amount(i));
        case 1 -> expected.push(repository(i), commits(i));
        default -> expected.order(orderId(i), 0, total(i), "paid");
      }
    }
  }
}
