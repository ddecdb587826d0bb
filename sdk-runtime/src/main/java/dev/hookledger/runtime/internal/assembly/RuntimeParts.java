package dev.hookledger.runtime.internal.assembly;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.observe.EventTracing;
import dev.hookledger.runtime.internal.receive.ProviderRegistry;
import java.util.List;
import javax.sql.DataSource;
import org.jooq.TransactionProvider;

/**
 * What a runtime is built from besides its settings: the application's objects (its database or the
 * URL to pool, adapters with their secrets, handler instances, mapper, listeners, transactions).
 * Holds a password: its {@code toString} names only how many providers and handlers it has.
 *
 * @param dataSource the application's pool, or null when {@code jdbcUrl} is set
 * @param listener every listener of the builder, each call guarded (a listener cannot change an outcome)
 * @param transactionProvider the application's transactions, or null for jOOQ's own
 * @param tracing the spans of receive, process and each handler; {@link EventTracing#NONE} by default
 */
public record RuntimeParts(DataSource dataSource, String jdbcUrl, String user, String password,
    List<ProviderRegistry.Registration> providers, List<Object> handlers, ObjectMapper objectMapper,
    WebhookListener listener, TransactionProvider transactionProvider, DataSource transactionalConnections,
    EventTracing tracing) {
  public RuntimeParts {
    providers = List.copyOf(providers);
    handlers = List.copyOf(handlers);
  }

  @Override
  public String toString() {
    return "RuntimeParts[" + providers.size() + " providers, " + handlers.size() + " handlers]";
  }
}
