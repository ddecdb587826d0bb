package dev.hookledger.samples.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Samples the JVM's used heap every few milliseconds while a run lasts, keeping the peak. */
final class HeapSampler implements AutoCloseable {
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private final AtomicLong peak = new AtomicLong();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "bench-heap-sampler");
    t.setDaemon(true);
    return t;
  });

  HeapSampler() {
    timer.scheduleAtFixedRate(this::sample, 0, 20, TimeUnit.MILLISECONDS);
  }

  private void sample() {
    peak.accumulateAndGet(used(), Math::max);
  }

  /** The highest used heap seen so far, in bytes. */
  long peakBytes() {
    sample();
    return peak.get();
  }

  static long used() {
    return MEMORY.getHeapMemoryUsage().getUsed();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
