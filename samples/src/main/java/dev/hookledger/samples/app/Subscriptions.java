package dev.hookledger.samples.app;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hookledger.OnEvent;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;

/**
 * Stripe subscriptions: {@code customer.subscription.created}, {@code .updated} and
 * {@code .deleted} keep the subscription's newest status and plan (its items' prices).
 *
 * <p>The method simply overwrites the row with what the event says. That is only right because of
 * {@code skipStale = true}: Stripe does not deliver in order, and an older version arriving after a
 * newer one would otherwise put the old status back. The ordering guard compares the event's
 * version (Stripe's {@code created}) with the newest one applied to this subscription and skips
 * this method for an older event, which the ledger then records as {@code stale}.
 */
public final class Subscriptions {

  /** The part of a Stripe {@code customer.subscription.*} event this handler reads. */
  public record SubscriptionChanged(Data data) {
    /** Stripe's {@code data} member. */
    public record Data(Subscription object) {}
  }

  /**
   * A Stripe subscription, as far as this sample needs it, in the shape of current API versions:
   * what it sells is in {@code items.data[].price}. (The top-level {@code plan} of single-item
   * subscriptions is legacy and absent from current versions; reading it recorded no plan at all.)
   */
  public record Subscription(String id, String customer, String status, Items items) {
    /** Stripe's list of subscription items. */
    public record Items(List<Item> data) {}

    /** One subscription item: one price, with its quantity. */
    public record Item(Price price) {}

    /** A price; {@code lookup_key} is the stable name a dashboard user gives it ({@code pro}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Price(String id, String lookupKey) {
      String name() {
        return lookupKey != null ? lookupKey : id;
      }
    }

    /**
     * The plan as this sample shows it: each item's price, by lookup key (else id), joined with
     * {@code +} in Stripe's order.
     *
     * @throws IllegalStateException if the subscription has no item with a price: the attempt fails
     *     (and is retried, then dead) rather than record a subscription with no plan
     */
    String plan() {
      List<String> prices = new ArrayList<>();
      if (items != null && items.data() != null) {
        for (Item item : items.data()) {
          if (item != null && item.price() != null) {
            prices.add(item.price().name());
          }
        }
      }
      if (prices.isEmpty()) {
        throw new IllegalStateException("subscription " + id + " has no items.data[].price: cannot tell its plan");
      }
      return String.join("+", prices);
    }
  }

  @OnEvent(value = "customer.subscription.*", provider = "stripe", skipStale = true)
  void changed(SubscriptionChanged event, DSLContext tx) {
    Subscription s = event.data().object();
    tx.execute("""
        INSERT INTO sample.subscription (id, customer, status, plan) VALUES (?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE
          SET customer = EXCLUDED.customer, status = EXCLUDED.status, plan = EXCLUDED.plan
        """, s.id(), s.customer(), s.status(), s.plan());
  }
}
