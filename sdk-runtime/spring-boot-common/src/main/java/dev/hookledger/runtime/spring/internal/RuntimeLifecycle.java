package dev.hookledger.runtime.spring.internal;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.spring.SpringTransactions;
import java.util.function.Supplier;
import org.springframework.context.SmartLifecycle;

/**
 * Ties the runtime to the application context: migrates (when {@code hookledger.migrate} asks for it:
 * by default only on an embedded database) and starts it before the web server takes requests, and closes it after the web server has
 * stopped taking them (after Boot's graceful shutdown, when configured), so that every delivery
 * answered is recorded. Closing stops claiming, gives back the events claimed but not started, and
 * waits up to {@code hookledger.shutdown-timeout} for those in flight. A closed runtime cannot start
 * again: a context stopped and started again keeps it closed.
 */
public final class RuntimeLifecycle implements SmartLifecycle {
  /**
   * Before Boot's web server starts ({@code DEFAULT_PHASE - 2048}) and after it stops: lifecycles
   * stop in the reverse order of their phases.
   */
  static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

  private final Supplier<WebhookRuntime> runtime;
  private final boolean migrate;
  private volatile boolean running;

  /**
   * A lifecycle of the runtime {@code runtime} supplies when the context starts (after every singleton
   * is created), migrating the ledger first when {@code migrate}.
   */
  public RuntimeLifecycle(Supplier<WebhookRuntime> runtime, boolean migrate) {
    this.runtime = runtime;
    this.migrate = migrate;
  }

  @Override
  public void start() {
    WebhookRuntime r = runtime.get();
    // a WebhookRuntime bean of the application's own: its transactions must be Spring's, or a handler's
    // JdbcTemplate, JPA and @Transactional writes commit apart from the ledger row (credited, then dead)
    if (!SpringTransactions.isWired(r)) {
      throw new IllegalStateException("hookledger: the application's WebhookRuntime bean runs its handlers outside"
          + " Spring's transactions, so their JdbcTemplate, JPA and @Transactional writes would commit apart from the"
          + " ledger row: build it with SpringTransactions.wire(WebhookRuntime.builder(), dataSource,"
          + " transactionManager), or remove it and customize the auto-configured one with hookledger.* properties"
          + " or a WebhookRuntimeCustomizer bean");
    }
    if (migrate) {
      r.migrate();
    }
    r.start();
    running = true;
  }

  @Override
  public void stop() {
    runtime.get().close();
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
