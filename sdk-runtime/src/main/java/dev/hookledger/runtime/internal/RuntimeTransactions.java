package dev.hookledger.runtime.internal;

import dev.hookledger.runtime.WebhookRuntime;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.jooq.TransactionProvider;

/**
 * Which transaction provider each runtime was built with, so that an integration (Spring's) can refuse
 * a runtime whose handlers' transactions are not its own, without a public getter on the runtime.
 */
public final class RuntimeTransactions {
  private static final Map<WebhookRuntime, TransactionProvider> PROVIDERS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private RuntimeTransactions() {}

  /** Called by the runtime as it is built; {@code provider} null for jOOQ's own transactions. */
  public static void record(WebhookRuntime runtime, TransactionProvider provider) {
    if (provider != null) {
      PROVIDERS.put(runtime, provider);
    }
  }

  /** The provider {@code runtime} was built with; null for jOOQ's own transactions. */
  public static TransactionProvider of(WebhookRuntime runtime) {
    return PROVIDERS.get(runtime);
  }
}
