package dev.hookledger.samples.docs;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.Deadlines;
import dev.hookledger.runtime.Inbox;
import dev.hookledger.runtime.OutboxSenders;
import dev.hookledger.runtime.Receive;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.stripe.StripeAdapter;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * The examples of docs/configuration.md, compiled: {@code DocSnippetsTest} checks that each marked block
 * of that page is made of these lines, in this order.
 */
final class ConfigurationExamples {
  private ConfigurationExamples() {}

  static WebhookRuntime grouped(DataSource dataSource) {
    WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(dataSource)
        .provider(new StripeAdapter(), Secrets.fromEnvironment("STRIPE_WEBHOOK_SECRET"))
        .handlers(new Billing())
        .inbox(Inbox.builder()
            .workers(8)
            .lease(Duration.ofMinutes(2))
            .retryPolicy(RetryPolicy.builder().maxAttempts(8).build())
            .build())
        .deadlines(Deadlines.builder().handlerTimeout(Duration.ofSeconds(10)).build())
        .receive(Receive.builder().ledgerWriters(4).queueCapacity(4096).build())
        .outbox(OutboxSenders.builder().workers(0).build())   // this node enqueues effects, the others send them
        .build();
    return runtime;
  }

  static WebhookRuntimeBuilder changed(WebhookRuntimeBuilder builder) {
    return builder
        .inbox(i -> i.workers(8))                              // the inbox's other options stay as they were
        .deadlines(d -> d.handlerTimeout(Duration.ofSeconds(10)));
  }
}
