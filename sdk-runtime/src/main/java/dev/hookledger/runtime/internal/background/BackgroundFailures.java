package dev.hookledger.runtime.internal.background;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts and logs what a background loop (worker, poller, listener) caught and survived: an
 * {@link Error} such as an {@link OutOfMemoryError}, or a defect. A loop that let it escape would
 * die for good while the node went on acknowledging deliveries; instead it logs, counts here and
 * goes on, and {@code WebhookRuntime.health()} reports the count. Thread-safe.
 */
public final class BackgroundFailures {
  private static final Logger log = LoggerFactory.getLogger(BackgroundFailures.class);

  private final AtomicLong count = new AtomicLong();

  /** Logs {@code failure} at ERROR with what the loop was doing, and counts it. */
  public void caught(String loop, Object doing, Throwable failure) {
    long n = count.incrementAndGet();
    try {
      log.error("{} survived an unexpected {} while {} ({} so far); it goes on", loop,
          failure.getClass().getName(), doing, n, failure);
    } catch (Throwable logging) {
      // out of memory again while logging: the count is what is left to report
    }
  }

  /** How many failures the loops have survived since the runtime started. */
  public long count() {
    return count.get();
  }
}
