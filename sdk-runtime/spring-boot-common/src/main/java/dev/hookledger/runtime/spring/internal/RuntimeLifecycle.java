package dev.hookledger.runtime.spring.internal;

import dev.hookledger.runtime.WebhookRuntime;
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

  private final WebhookRuntime runtime;
  private final boolean migrate;
  private volatile boolean running;

  /** A lifecycle that migrates the ledger before starting when {@code migrate}. */
  public RuntimeLifecycle(WebhookRuntime runtime, boolean migrate) {
    this.runtime = runtime;
    this.migrate = migrate;
  }

  @Override
  public void start() {
    if (migrate) {
      runtime.migrate();
    }
    runtime.start();
    running = true;
  }

  @Override
  public void stop() {
    runtime.close();
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
