package dev.hookledger.samples.bench;

import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient.Answer;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sends a {@link LoadPlan} over HTTP with a fixed number of concurrent clients, each on its own
 * keep-alive connection and taking the next delivery as soon as its previous one is answered, until
 * the plan is done or the deadline passes. Records every answer's latency.
 */
final class LoadGenerator {
  private final URI target;
  private final SampleSigners sign;
  private final Clock clock;

  LoadGenerator(URI target, SampleSigners sign, Clock clock) {
    this.target = target;
    this.sign = sign;
    this.clock = clock;
  }

  /** What a run did. */
  record Run(int sent, long elapsedNanos, Latencies latencies, Map<String, Long> answers, boolean cutOff) {
    double perSecond() {
      return elapsedNanos == 0 ? 0 : sent * 1e9 / elapsedNanos;
    }
  }

  Run run(LoadPlan plan, int clients, long deadlineNanos) throws InterruptedException {
    AtomicInteger next = new AtomicInteger();
    long[] latencies = new long[plan.deliveries()];
    Map<String, LongAdder> answers = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients, r -> new Thread(r, "bench-client"));
    long start = System.nanoTime();
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        workers.add(pool.submit(() -> {
          try (KeepAliveConnection connection = new KeepAliveConnection(target)) {
            for (int n = next.getAndIncrement(); n < plan.deliveries() && System.nanoTime() < deadlineNanos;
                n = next.getAndIncrement()) {
              Answer a = connection.send(plan.delivery(n, sign, clock.instant()));
              latencies[n] = a.latency().toNanos();
              answers.computeIfAbsent(a.toString(), k -> new LongAdder()).increment();
            }
          }
          return null;
        }));
      }
      for (Future<?> w : workers) {
        w.get();
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("a load client failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
    long elapsed = System.nanoTime() - start;
    // a client that met the deadline took a number it never sent: count what was answered
    long[] measured = Arrays.stream(latencies).filter(l -> l > 0).toArray();
    int sent = measured.length;
    Map<String, Long> counts = new TreeMap<>();
    answers.forEach((k, v) -> counts.put(k, v.sum()));
    return new Run(sent, elapsed, new Latencies(measured), counts, sent < plan.deliveries());
  }
}
