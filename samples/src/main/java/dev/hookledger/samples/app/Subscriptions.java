package dev.hookledger.samples.app;

import dev.hookledger.OnEvent;
import org.jooq.DSLContext;

/**
 * Stripe subscriptions: {@code customer.subscription.created}, {@code .updated} and
 * {@code .deleted} keep the subscription's newest status and plan.
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

  /** A Stripe subscription, as far as this sample needs it. */
  public record Subscription(String id, String customer, String status, Plan plan) {
    /** The subscription's plan (Stripe keeps {@code plan} on single-item subscriptions). */
    public record Plan(String id) {}

    String planId() {
      return plan == null ? null : plan.id();
    }
  }

  @OnEvent(value = "customer.subscription.*", provider = "stripe", skipStale = true)
  void changed(SubscriptionChanged event, DSLContext tx) {
    Subscription s = event.data().object();
    tx.execute("""
        INSERT INTO sample.subscription (id, customer, status, plan) VALUES (?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE
          SET customer = EXCLUDED.customer, status = EXCLUDED.status, plan = EXCLUDED.plan
        """, s.id(), s.customer(), s.status(), s.planId());
  }
}
