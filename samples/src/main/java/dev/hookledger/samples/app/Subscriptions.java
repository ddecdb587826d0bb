package dev.hookledger.samples.app;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hookledger.OnEvent;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jspecify.annotations.Nullable;

/**
 * Stripe subscriptions: {@code customer.subscription.created}, {@code .updated} and
 * {@code .deleted} keep the subscription's newest status and plan (its items' prices, or plans
 * in API versions before prices).
 *
 * <p>The method simply overwrites the row with what the event says. That is only right because of
 * {@code skipStale = true}: Stripe does not deliver in order, and an older version arriving after a
 * newer one would otherwise put the old status back. The ordering guard compares the event's
 * version (Stripe's {@code created}) with the newest one applied to this subscription and skips
 * this method for an older event, which the ledger then records as {@code stale}.
 */
public final class Subscriptions {
  private static final HandlerStatement UPSERT = new HandlerStatement("""
      INSERT INTO sample.subscription (id, customer, status, plan) VALUES (?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE
        SET customer = EXCLUDED.customer, status = EXCLUDED.status, plan = EXCLUDED.plan
      """);

  /** The part of a Stripe {@code customer.subscription.*} event this handler reads. */
  public record SubscriptionChanged(Data data) {
    /** Stripe's {@code data} member. */
    public record Data(Subscription object) {}
  }

  /**
   * A Stripe subscription, as far as this sample needs it, in the shape of every API version: what
   * it sells is in {@code items.data[].price} since prices exist (2020), in {@code items.data[].plan}
   * before, and in a top-level {@code plan} before subscriptions had items. Before 2014-01-31 a
   * customer had one subscription, which had no {@code id}. Stripe sends nullable fields as explicit
   * {@code null} ({@code price.lookup_key}, the {@code plan} of a multi-item subscription).
   */
  public record Subscription(@Nullable String id, String customer, String status, @Nullable Items items,
      @Nullable Plan plan) {
    /** Stripe's list of subscription items. */
    public record Items(List<Item> data) {}

    /** One subscription item: one price (or, before prices, one plan), with its quantity. */
    public record Item(@Nullable Price price, @Nullable Plan plan) {}

    /** A price; {@code lookup_key} is the stable name a dashboard user gives it ({@code pro}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Price(String id, @Nullable String lookupKey) {
      String name() {
        return lookupKey != null ? lookupKey : id;
      }
    }

    /** A plan, what a subscription sold before prices; its id is the name its creator gave it. */
    public record Plan(String id) {}

    /**
     * The plan as this sample shows it: each item's price, by lookup key (else id), or the item's plan
     * before prices, joined with {@code +} in Stripe's order; the top-level plan when there are no items.
     *
     * @throws IllegalStateException if the subscription names no price or plan at all: the attempt fails
     *     (and is retried, then dead) rather than record a subscription with no plan
     */
    String planName() {
      List<String> names = new ArrayList<>();
      if (items != null && items.data() != null) {
        for (Item item : items.data()) {
          if (item != null && item.price() != null) {
            names.add(item.price().name());
          } else if (item != null && item.plan() != null) {
            names.add(item.plan().id());
          }
        }
      }
      if (names.isEmpty() && plan != null) {
        names.add(plan.id());
      }
      if (names.isEmpty()) {
        throw new IllegalStateException("subscription " + id + " names no price or plan; this sample records a plan"
            + " for every subscription");
      }
      return String.join("+", names);
    }
  }

  @OnEvent(value = "customer.subscription.*", provider = "stripe", skipStale = true)
  void changed(SubscriptionChanged event, DSLContext tx) {
    Subscription s = event.data().object();
    if (s.id() == null) {
      throw new IllegalStateException("the subscription of customer " + s.customer() + " has no id (an API version"
          + " before 2014-01-31, one subscription per customer); this sample keeps subscriptions by id");
    }
    UPSERT.execute(tx, s.id(), s.customer(), s.status(), s.planName());
  }
}
