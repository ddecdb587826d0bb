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
 * all in a shuffled order. Invoices and pushes are spread over {@code entities} customers and
 * repositories (each one a row their handler updates: one entity makes that row hot); every order is
 * its own. Deterministic for a given seed. Immutable.
 */
final class LoadPlan {
  /** Customers and repositories when not said: enough that no row is hot, as in most applications. */
  static final int DEFAULT_ENTITIES = 256;

  private final List<Event> events;
  private final List<Integer> sendOrder;
  private final int entities;
  private final String provider;

  /** The providers a plan can be limited to, in the order an unlimited plan takes turns among them. */
  static final List<String> PROVIDERS = List.of("stripe", "github", "shopify");

  /** One distinct event; its body is fixed, its signature made when it is sent. */
  record Event(String provider, String kind, String id, String body) {}

  /**
   * What a plan is made from: with the same spec and clock, two processes make the same plan.
   *
   * @param provider the one provider every event is of ({@link #PROVIDERS}); empty for the three in turn
   */
  record Spec(int deliveries, double duplicateRatio, long seed, int entities, String provider) {
    /** The three providers in turn. */
    Spec(int deliveries, double duplicateRatio, long seed, int entities) {
      this(deliveries, duplicateRatio, seed, entities, "");
    }

    /** The same plan with another size and seed. */
    Spec with(int deliveries, long seed) {
      return new Spec(deliveries, duplicateRatio, seed, entities, provider);
    }
  }

  private LoadPlan(List<Event> events, List<Integer> sendOrder, int entities, String provider) {
    this.events = events;
    this.sendOrder = sendOrder;
    this.entities = entities;
    this.provider = provider;
  }

  /**
   * A plan of {@code spec}'s deliveries of which about its duplicate ratio are redeliveries.
   *
   * @throws IllegalArgumentException if {@code deliveries < 1}, the ratio is outside [0, 0.9],
   *     {@code entities < 1} or the provider is none of {@link #PROVIDERS}
   */
  static LoadPlan of(Spec spec, Clock clock) {
    int deliveries = spec.deliveries();
    double duplicateRatio = spec.duplicateRatio();
    long seed = spec.seed();
    int entities = spec.entities();
    String provider = spec.provider();
    if (deliveries < 1) {
      throw new IllegalArgumentException("deliveries must be >= 1, but was " + deliveries);
    }
    if (!(duplicateRatio >= 0 && duplicateRatio <= 0.9)) {
      throw new IllegalArgumentException("duplicate ratio must be between 0 and 0.9, but was " + duplicateRatio);
    }
    if (entities < 1) {
      throw new IllegalArgumentException("entities must be >= 1, but was " + entities);
    }
    if (!provider.isEmpty() && !PROVIDERS.contains(provider)) {
      throw new IllegalArgumentException("provider must be one of " + PROVIDERS + ", but was " + provider);
    }
    int distinct = Math.max(1, (int) Math.round(deliveries * (1 - duplicateRatio)));
    Random random = new Random(seed);
    Instant now = clock.instant();
    List<Event> events = new ArrayList<>(distinct);
    for (int i = 0; i < distinct; i++) {
      events.add(event(i, seed, entities, provider, now));
    }
    List<Integer> order = new ArrayList<>(deliveries);
    for (int i = 0; i < deliveries; i++) {
      order.add(i < distinct ? i : random.nextInt(distinct));
    }
    Collections.shuffle(order, random);
    return new LoadPlan(List.copyOf(events), List.copyOf(order), entities, provider);
  }

  /** Which provider's event the {@code i}-th distinct one is: an index into {@link #PROVIDERS}. */
  private static int kind(int i, String provider) {
    return provider.isEmpty() ? i % 3 : PROVIDERS.indexOf(provider);
  }

  /** The {@code i}-th distinct event's place among those of its provider, which picks its customer or repository. */
  private static int nth(int i, String provider) {
    return provider.isEmpty() ? i / 3 : i;
  }

  private static Event event(int i, long seed, int entities, String provider, Instant now) {
    int n = nth(i, provider);
    return switch (kind(i, provider)) {
      case 0 -> {
        String id = "evt_bench_" + seed + "_" + i;
        yield new Event("stripe", "invoice.paid", id,
            SampleEvents.invoicePaid(id, "in_bench_" + i, customer(n, entities), amount(i), "usd", now));
      }
      case 1 -> new Event("github", "push", UUID.nameUUIDFromBytes((seed + "/" + i).getBytes()).toString(),
          SampleEvents.push(repository(n, entities), String.format("%040x", (long) i), commits(i)));
      default -> new Event("shopify", "orders/create", UUID.nameUUIDFromBytes((seed + "#" + i).getBytes()).toString(),
          SampleEvents.order(orderId(i), "#" + i, total(i), "paid", now));
    };
  }

  /** The customer of the {@code n}-th invoice: round robin over the entities. */
  private static String customer(int n, int entities) {
    return "cus_bench_" + (n % entities);
  }

  private static long amount(int i) {
    return 100 + (i % 900);
  }

  /** The repository of the {@code n}-th push: round robin over the entities. */
  private static String repository(int n, int entities) {
    return "bench/repo-" + (n % entities);
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

  int entities() {
    return entities;
  }

  /** The event the {@code n}-th delivery carries, unsigned: what the inline design at the database alone writes. */
  Event event(int n) {
    return events.get(sendOrder.get(n));
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
      int n = nth(i, provider);
      switch (kind(i, provider)) {
        case 0 -> expected.invoicePaid(customer(n, entities), amount(i));
        case 1 -> expected.push(repository(n, entities), commits(i));
        default -> expected.order(orderId(i), 0, total(i), "paid");
      }
    }
  }
}
