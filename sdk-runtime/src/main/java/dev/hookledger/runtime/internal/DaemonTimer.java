package dev.hookledger.runtime.internal;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The one-thread timers of a runtime's background chores: a daemon thread, named, so that it never holds the JVM. */
public final class DaemonTimer {
  private DaemonTimer() {}

  /** A scheduled executor on one daemon thread called {@code threadName}. */
  public static ScheduledExecutorService start(String threadName) {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
  }
}
