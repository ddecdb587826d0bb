package dev.hookledger.runtime.outbox;

import static dev.hookledger.runtime.outbox.OutboxFixture.awaitEffects;
import static dev.hookledger.runtime.outbox.OutboxFixture.builder;
import static dev.hookledger.runtime.outbox.OutboxFixture.number;
import static dev.hookledger.runtime.outbox.OutboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A destination's concurrency is held across the nodes of one ledger through PostgreSQL: two
 * runtimes with four senders each, one destination allowing 2 requests at once, and a sink that
 * counts the requests in flight at each moment (answering each a little later, so that requests
 * overlap if anything lets them). The maximum it saw is asserted, never a duration.
 */
class OutboxConcurrencyTest {
  private static final int CONCURRENCY = 2;
  private static final int EFFECTS = 24;

  private final TestDatabase.Database db = OutboxFixture.database();
  private final Sink sink = new Sink();

  @AfterEach
  void stop() {
    sink.stop();
  }

  @Test
  void aDestinationsConcurrencyHoldsAcrossTwoNodesWithSeveralSendersEach() {
    URI url = sink.url();
    try (WebhookRuntime a = builder(db.jdbcUrl(), url, new OutboxFixture.Receipts(0)).outboxWorkers(4)
            .destination(OutboxFixture.receipts(url).concurrency(CONCURRENCY)).build();
        WebhookRuntime b = builder(db.jdbcUrl(), url, new OutboxFixture.Receipts(0)).outboxWorkers(4)
            .destination(OutboxFixture.receipts(url).concurrency(CONCURRENCY)).build()) {
      a.start();
      b.start();
      for (int i = 0; i < EFFECTS; i++) {
        receive(i % 2 == 0 ? a : b, "evt_conc_" + i);
      }
      awaitEffects(db, EFFECTS, "done");
    }
    assertTrue(sink.most.get() <= CONCURRENCY, "at most " + CONCURRENCY + " in flight at once, but saw "
        + sink.most.get());
    assertEquals(CONCURRENCY, sink.most.get(), "the limit is used, not undercut to one at a time");
    assertEquals(EFFECTS, sink.keys.size(), "one request per effect: " + sink.keys);
    assertEquals(EFFECTS, sink.keys.stream().distinct().count(), "each effect's key once: " + sink.keys);
    assertEquals(EFFECTS, number(db, "select count(*) from hookledger.effect_attempt where outcome = 'done'"));
    assertEquals(2, number(db, "select count(distinct node) from hookledger.effect_attempt"), "both nodes sent");
  }

  /** A JDK HTTP server answering 200 after a short hold, counting the requests in flight. */
  private static final class Sink {
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();
    final List<String> keys = new CopyOnWriteArrayList<>();
    private final ExecutorService threads = Executors.newFixedThreadPool(16);
    private final HttpServer server;

    Sink() {
      try {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      // the server's own threads are many more than the limit: only the senders can hold it
      server.setExecutor(threads);
      server.createContext("/", this::handle);
      server.start();
    }

    URI url() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void handle(HttpExchange exchange) throws IOException {
      int now = inFlight.incrementAndGet();
      most.accumulateAndGet(now, Math::max);
      try {
        exchange.getRequestBody().readAllBytes();
        keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
        Thread.sleep(150); // a slow destination: the senders that could overlap, do
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        // counted out before the answer leaves: a sender never sees its answer while still counted
        inFlight.decrementAndGet();
      }
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    }

    void stop() {
      server.stop(0);
      threads.shutdownNow();
    }
  }
}
