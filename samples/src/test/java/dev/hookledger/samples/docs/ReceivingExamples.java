package dev.hookledger.samples.docs;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.stripe.StripeAdapter;
import jakarta.servlet.ServletContext;
import javax.sql.DataSource;

/**
 * The examples of docs/receiving.md, compiled: {@code DocSnippetsTest} checks that each marked block of
 * that page is made of these lines, in this order.
 */
final class ReceivingExamples {
  private ReceivingExamples() {}

  static final class Billing {}

  static final class Issues {}

  static WebhookRuntime inCode(DataSource dataSource, ServletContext servletContext) {
    WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(dataSource)                               // or .jdbcUrl("jdbc:postgresql://...") pooled by HikariCP
        .provider(new StripeAdapter(), Secrets.fromEnvironment("STRIPE_WEBHOOK_SECRET"))
        .provider("github", Secrets.fromEnvironment("GITHUB_WEBHOOK_SECRET"))  // adapter found by ServiceLoader id
        .handlers(new Billing(), new Issues())
        .build();
    runtime.migrate();   // creates the ledger schema if needed; idempotent, safe from several processes
    runtime.start();     // starts the workers; events stored by earlier runs are processed too

    servletContext.addFilter("hookledger", new WebhookFilter(runtime))
        .addMappingForUrlPatterns(null, false, "/*");
    // on shutdown: runtime.close() drains the workers
    return runtime;
  }
}
