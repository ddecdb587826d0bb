package dev.hookledger.samples.demo;

import com.sun.net.httpserver.HttpServer;
import dev.hookledger.HttpEffect;
import dev.hookledger.OnEvent;
import dev.hookledger.Outbox;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.EffectQuery;
import dev.hookledger.runtime.admin.EffectSummary;
import dev.hookledger.samples.server.SampleDatabase;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.stripe.StripeAdapter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * A receipt through the outbox survives a crash between the commit and the send: a node whose
 * handler enqueues a receipt commits the event and the receipt together, and stops before any
 * sender of it runs (as a node killed right after its commit); a node started afterwards on the
 * same ledger sends the receipt, once, with the idempotency key it was given at the commit. Runs on
 * a ledger schema of its own beside the sample's, so that the sample's handlers and state are not
 * involved, and a local receipt server that records what it received.
 */
final class ReceiptSteps {
  static final String SCHEMA = "demo_receipts";
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final DemoContext ctx;
  private final Narrator n;
  private final SampleDatabase database;
  private final SampleSecrets secrets;

  ReceiptSteps(DemoContext ctx, SampleDatabase database, SampleSecrets secrets) {
    this.ctx = ctx;
    this.n = ctx.narrator();
    this.database = database;
    this.secrets = secrets;
  }

  /** Sends a receipt per paid invoice through the outbox. */
  public static final class Receipts {
    @OnEvent(value = "invoice.paid", provider = "stripe")
    public void paid(WebhookEvent event, Outbox outbox) {
      outbox.send(HttpEffect.to("receipts", "/receipts").json("{\"event\":\"" + event.eventId() + "\"}").build());
    }
  }

  void receiptSurvivesACrash() throws InterruptedException {
    String id = "evt_demo_receipt";
    n.step("A receipt through the outbox survives a crash: invoice.paid " + id + " enqueues a receipt in its"
        + " handler's transaction, and the node stops between the commit and the send");
    List<String> keys = new CopyOnWriteArrayList<>();
    HttpServer server = receiptServer(keys);
    try {
      URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
      EffectSummary before;
      // the first node has no sender: it stops after the commit and before any send, as a crash there would
      try (WebhookRuntime node = node(url, 0)) {
        node.migrate();
        node.start();
        String body = SampleEvents.invoicePaid(id, "in_demo_receipt", "cus_receipt", 1500, "usd",
            ctx.clock().instant());
        Receipt r = node.receive("stripe", ctx.sign().stripe(body, ctx.clock().instant()));
        before = await("the receipt enqueued", () -> receipt(node).filter(e -> e.status() == EffectStatus.PENDING));
        n.say("node 1", r.outcome().name().toLowerCase(Locale.ROOT) + "; ledger: the event done and its"
            + " receipt " + before.status().displayText() + " (" + before.attempts() + " attempts), key "
            + before.idempotencyKey() + "; stopped before sending it");
      }
      int sentWhileDown = keys.size();
      try (WebhookRuntime node = node(url, 1)) {
        node.start();
        EffectSummary after = await("the receipt sent", () -> receipt(node)
            .filter(e -> e.status() == EffectStatus.DONE));
        n.say("node 2", "started on the same ledger: receipt " + after.status().displayText() + "; the receipt"
            + " server got " + keys.size() + (keys.size() == 1 ? " request" : " requests") + ", Idempotency-Key "
            + String.join(", ", keys));
        n.check(sentWhileDown == 0 && keys.equals(List.of(before.idempotencyKey())),
            "the receipt committed with the event arrived once after the restart, with the key it was given"
                + " at the commit");
      }
    } finally {
      server.stop(0);
    }
  }

  private WebhookRuntime node(URI receipts, int senders) {
    return WebhookRuntime.builder()
        .dataSource(database.dataSource())
        .schema(SCHEMA)
        .provider(new StripeAdapter(), Secrets.fromEnvironment(SampleSecrets.STRIPE_ENV, secrets::valueOf))
        .handlers(new Receipts())
        .inbox(i -> i.workers(1).pollInterval(Duration.ofMillis(50)))
        .outbox(o -> o.workers(senders).pollInterval(Duration.ofMillis(100)))
        .destination(Destination.named("receipts").url(receipts))
        .build();
  }

  private static Optional<EffectSummary> receipt(WebhookRuntime node) {
    return node.admin().outbox().list(EffectQuery.all().destination("receipts")).stream().findFirst();
  }

  private static EffectSummary await(String what, Supplier<Optional<EffectSummary>> found) throws InterruptedException {
    long until = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < until) {
      Optional<EffectSummary> e = found.get();
      if (e.isPresent()) {
        return e.get();
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException(what + ": not within " + WAIT.toSeconds() + " s");
  }

  /** A local receipt server: answers 200 and records each request's idempotency key. */
  private static HttpServer receiptServer(List<String> keys) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
      server.createContext("/receipts", exchange -> {
        exchange.getRequestBody().readAllBytes();
        keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
        exchange.sendResponseHeaders(200, -1);
        exchange.close();
      });
      server.start();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
