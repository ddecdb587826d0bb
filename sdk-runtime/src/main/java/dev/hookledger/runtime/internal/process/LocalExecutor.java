package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.ledger.EventKey;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Processes handed-off events on a fixed number of daemon threads, with a bounded queue. When the
 * queue is full the event is left {@code pending} in the ledger (and picked up by the next start)
 * rather than held in memory without bound. Thread-safe.
 */
public final class LocalExecutor implements EventHandOff {
  /** Events queued at most; each holds its body, so the bound is on memory too. */
  public static final int QUEUE_CAPACITY = 10_000;
  private static final Logger log = LoggerFactory.getLogger(LocalExecutor.class);

  private final EventProcessor processor;
  private final ThreadPoolExecutor pool;

  public LocalExecutor(EventProcessor processor, int workers) {
    this.processor = processor;
    this.pool = new ThreadPoolExecutor(workers, workers, 0, TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(QUEUE_CAPACITY), threads(), new ThreadPoolExecutor.AbortPolicy());
  }

  @Override
  public void handOff(EventKey key, WebhookEvent event) {
    try {
      pool.execute(() -> processor.process(key, event));
    } catch (RejectedExecutionException e) {
      log.warn("{} stays pending: the local executor is {}", key, pool.isShutdown() ? "shut down" : "full");
    }
  }

  /**
   * Stops taking events and waits up to {@code drain} for those queued and running; what is still
   * queued then stays {@code pending} in the ledger.
   */
  public void close(Duration drain) {
    pool.shutdown();
    try {
      if (!pool.awaitTermination(drain.toMillis(), TimeUnit.MILLISECONDS)) {
        int left = pool.shutdownNow().size();
        log.warn("local executor not drained after {} ms; {} queued events stay pending", drain.toMillis(), left);
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory threads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "hookledger-worker-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
