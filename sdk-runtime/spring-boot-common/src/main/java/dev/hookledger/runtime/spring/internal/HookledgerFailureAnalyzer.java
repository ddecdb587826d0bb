package dev.hookledger.runtime.spring.internal;

import dev.hookledger.runtime.internal.ledger.LedgerNotMigratedException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Turns the start failures a new hookledger application meets first into Boot's "APPLICATION FAILED
 * TO START" report, a description and an action: no {@code DataSource} for the ledger, a provider
 * secret refused, and a ledger not created (or not upgraded) on a database server, where the default
 * {@code hookledger.migrate=embedded} applies nothing. Registered in {@code META-INF/spring.factories}.
 * Never shows a secret.
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
      if (t instanceof LedgerNotMigratedException e) {
        // a Boot application has neither 'hookledger migrate' nor a place to call migrate(): say its two routes
        return new FailureAnalysis(e.reason() + ", and hookledger.migrate did not "
            + (e.version() == 0 ? "create them" : "upgrade it") + " (its default, embedded, applies the ledger's schema only to an embedded database, which a"
            + " PostgreSQL server is not). Started so, the application would answer 503 to every delivery.",
            "Set hookledger.migrate=always to have the application create and upgrade the ledger as it starts"
                + " (idempotent; several nodes may start at once), or apply the ledger's scripts (classpath:"
                + "db/hookledger) before the application starts with a Flyway of their own or Liquibase (see \"The"
                + " ledger schema with your Flyway or Liquibase\" in hookledger's README) and set"
                + " hookledger.migrate=never.", e);
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
