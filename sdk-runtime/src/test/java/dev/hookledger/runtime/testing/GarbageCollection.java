package dev.hookledger.runtime.testing;

import java.lang.ref.WeakReference;
import java.time.Duration;

/**
 * Runs the garbage collector until it has provably run: a weakly held sentinel, reachable from
 * nothing else, is cleared. {@code System.gc()} is only a hint; the sentinel says the hint was
 * taken, so that whatever was only weakly reachable before the call is gone after it.
 */
public final class GarbageCollection {
  private GarbageCollection() {}

  public static void run() {
    WeakReference<Object> sentinel = new WeakReference<>(new Object());
    Await.until("a garbage collection", Duration.ofSeconds(30), () -> {
      System.gc();
      return sentinel.get() == null;
    });
    // a second full collection for what a first one only made unreachable (finalizers, references)
    System.gc();
  }
}
