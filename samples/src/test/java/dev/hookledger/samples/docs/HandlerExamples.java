package dev.hookledger.samples.docs;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.github.GitHubAdapter;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.shopify.ShopifyAdapter;
import dev.hookledger.stripe.StripeAdapter;
import java.time.Duration;
import javax.sql.DataSource;
import org.jooq.DSLContext;

/**
 * The examples of docs/handlers.md, compiled: {@code DocSnippetsTest} checks that each marked block of
 * that page is made of these lines, in this order.
 */
final class HandlerExamples {
  private HandlerExamples() {}

  record SubscriptionChanged(String id, String status, String plan) {}

  record Order(long id, String totalPrice, String financialStatus) {}

  public static final class Subscriptions {
    @OnEvent(value = "customer.subscription.*", provider = "stripe", skipStale = true)
    void changed(SubscriptionChanged event, DSLContext tx) { /* upsert status and plan */ }
  }

  public static final class Orders {
    @OnEvent(value = {"orders/create", "orders/updated"}, provider = "shopify", skipStale = true)
    void changed(Order order, DSLContext tx) { /* upsert total and status */ }
  }

  public static final class Tickets {}

  public static final class Commits {}

  static WebhookRuntime register(DataSource dataSource) {
    WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(dataSource)
        .provider(new StripeAdapter(), Secrets.fromEnvironment("STRIPE_WEBHOOK_SECRET"))
        .provider(new GitHubAdapter(), Secrets.fromEnvironment("GITHUB_WEBHOOK_SECRET"))
        .provider(new ShopifyAdapter(), Secrets.fromEnvironment("SHOPIFY_WEBHOOK_SECRET"))
        .handlers(new Billing(), new Subscriptions(), new Tickets(), new Commits(), new Orders())
        .build();
    runtime.migrate();
    runtime.start();
    return runtime;
  }

  static void retries() {
    RetryPolicy retries = RetryPolicy.builder()
        .firstDelay(Duration.ofSeconds(10))   // after the first failure
        .factor(2)                            // each further delay doubles
        .maxDelay(Duration.ofHours(1))        // but never exceeds this (before jitter)
        .maxAttempts(12)                      // the 12th failure makes the event dead
        .jitter(0.2)                          // each delay is spread by ±20 %
        .build();
    WebhookRuntime.builder().inbox(i -> i.retryPolicy(retries));   // with the rest of your configuration
  }

  record Subscription(String id, String status, String plan) {}

  public static final class Sync {
    @OnEvent(value = "customer.subscription.updated", skipStale = true)
    void sync(Subscription s, DSLContext tx) {
      tx.execute("update subscription set plan = ?, status = ? where id = ?", s.plan(), s.status(), s.id());
    }
  }

  /** docs/scaling.md: a handler whose own rows live on the event's shard. */
  public static final class CitusBilling {
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Invoice(String id, long amountPaid) {}

    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object") Invoice invoice, WebhookEvent event, DSLContext tx) {
      // event.scope() is the Stripe account: the row lands on the event's own shard
      tx.execute("insert into invoice_paid (account, invoice_id, amount) values (?, ?, ?)",
          event.scope(), invoice.id(), invoice.amountPaid());
    }
  }
}
