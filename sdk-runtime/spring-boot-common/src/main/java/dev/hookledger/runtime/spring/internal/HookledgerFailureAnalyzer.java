package dev.hookledger.runtime.spring.internal;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Turns the two start failures a new hookledger application meets first into Boot's "APPLICATION
 * FAILED TO START" report, a description and an action: no {@code DataSource} for the ledger, and a
 * provider secret refused. Registered in {@code META-INF/spring.factories}. Never shows a secret.
 */
final class HookledgerFailureAnalyzer implements FailureAnalyzer {
  @Override
  public FailureAnalysis analyze(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof MissingDataSourceException e) {
        return new FailureAnalysis(e.getMessage(), e.several()
            ? "Mark the DataSource of the ledger's PostgreSQL database @Primary, or declare your own WebhookRuntime"
                + " bean built with SpringTransactions.wire(WebhookRuntime.builder(), dataSource, transactionManager)."
            : "Set spring.datasource.url (and spring.datasource.username, spring.datasource.password) to the"
                + " PostgreSQL database of the ledger, with spring-boot-starter-jdbc on the class path, or set"
                + " hookledger.enabled=false.", e);
      }
      if (t instanceof RefusedSecretException e) {
        return new FailureAnalysis(e.getMessage(), "Set " + e.property() + " to the provider's webhook signing secret,"
            + " e.g. " + e.property() + "=${WEBHOOK_SECRET} with WEBHOOK_SECRET set in the environment (several,"
            + " comma-separated, during a rotation).", e);
      }
    }
    return null;
  }
}
