package dev.hookledger.runtime.outbox;

import static dev.hookledger.runtime.outbox.OutboxFixture.awaitEffects;
import static dev.hookledger.runtime.outbox.OutboxFixture.builder;
import static dev.hookledger.runtime.outbox.OutboxFixture.number;
import static dev.hookledger.runtime.outbox.OutboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
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
    sink.close();
  }

  @Test
  void aDestinationsConcurrencyHoldsAcrossTwoNodesWithSeveralSendersEach() {
    int sent = 0;
    URI url = sink.url();
    try (WebhookRuntime a = builder(db.jdbcUrl(), url, new OutboxFixture.Receipts(0)).outbox(o -> o.workers(4))
            .destination(OutboxFixture.receipts(url).concurrency(CONCURRENCY)).build();
        WebhookRuntime b = builder(db.jdbcUrl(), url, new OutboxFixture.Receipts(0)).outbox(o -> o.workers(4))
            .destination(OutboxFixture.receipts(url).concurrency(CONCURRENCY)).build()) {
      a.start();
      b.start();
      // which node claims is the nodes' race: the node whose sender just freed a slot claims again at
      // once, while the other learns of free slots at its next poll, so on a loaded machine batches
      // went to one node alone three times over (a clean-clone run). Batches follow until both have
      // sent, for up to a minute, the limit held over all of them
      long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
      while (sent == 0 || (nodes() < 2 && System.nanoTime() < deadline)) {
        for (int i = 0; i < EFFECTS; i++) {
          receive(i % 2 == 0 ? a : b, "evt_conc_" + (sent + i));
        }
        sent += EFFECTS;
        awaitEffects(db, sent, "done");
      }
    }
    assertTrue(sink.most.get() <= CONCURRENCY, "at most " + CONCURRENCY + " in flight at once, but saw "
        + sink.most.get());
    assertEquals(CONCURRENCY, sink.most.get(), "the limit is used, not undercut to one at a time");
    assertEquals(sent, sink.keys.size(), "one request per effect: " + sink.keys);
    assertEquals(sent, sink.keys.stream().distinct().count(), "each effect's key once: " + sink.keys);
    assertEquals(sent, number(db, "select count(*) from hookledger.effect_attempt where outcome = 'done'"));
    assertEquals(2, nodes(), "both nodes sent");
  }

  private long nodes() {
    return number(db, "select count(distinct node) from hookledger.effect_attempt");
  }

  /** A Jetty server answering 200 after a short hold, counting the requests in flight. */
  private static final class Sink extends Handler.Abstract {
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();
    final List<String> keys = new CopyOnWriteArrayList<>();
    // the server's own threads (Jetty's default pool) are many more than the limit: only the
    // senders can hold it
    private final Server server = new Server(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));

    Sink() {
      server.setHandler(this);
      try {
        server.start();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }

    URI url() {
      return URI.create("http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort());
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      int now = inFlight.incrementAndGet();
      most.accumulateAndGet(now, Math::max);
      try {
        Content.Source.consumeAll(request);
        keys.add(request.getHeaders().get("Idempotency-Key"));
        Thread.sleep(150); // a slow destination: the senders that could overlap, do
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        // counted out before the answer leaves: a sender never sees its answer while still counted
        inFlight.decrementAndGet();
      }
      response.setStatus(200);
      callback.succeeded();
      return true;
    }

    void close() {
      try {
        server.stop();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
