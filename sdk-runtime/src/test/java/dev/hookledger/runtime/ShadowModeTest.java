package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.admin.InboxStatus;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.RawPost;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import dev.hookledger.runtime.testing.TestServer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * SHADOW mode over real HTTP: the application's existing endpoint (a servlet behind the filter)
 * sees every request with its exact body, the ledger records and counts, no {@code @OnEvent}
 * method runs; then the same database under STORE_FIRST processes new events and never re-runs
 * what the existing endpoint handled.
 */
class ShadowModeTest {
  static final String SECRET = "shadow-secret";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);
  static final int LIMIT = 256;

  final TestDatabase.Database db = TestDatabase.create();
  final Handler handler = new Handler();
  final ExistingEndpoint existing = new ExistingEndpoint();

  @Test
  void shadowPassesEveryRequestOnWithItsBodyAndRecordsWithoutDispatching() throws Exception {
    Heard heard = new Heard();
    String first = "{\"id\":\"evt_1\",\"note\":\"caf\u00e9 \u2713\"}";
    String tooLarge = "{\"pad\":\"" + "x".repeat(400) + "\"}";
    String form = "payload=%7B%22id%22%3A1%7D&note=a+b";
    try (ServedRuntime shadow = serve(ProcessingMode.SHADOW, heard)) {
      List<HttpResponse<String>> responses = List.of(
          send(SIGNER.request(shadow.uri("/webhooks/testhook"), "evt_1", "order.paid", first), "stream"),
          send(SIGNER.request(shadow.uri("/webhooks/testhook"), "evt_1", "order.paid", first), "reader"),
          send(SIGNER.request(shadow.uri("/webhooks/testhook"), "evt_1", "order.paid", first), "stream"),
          send(new TestHookSigner("wrong").request(shadow.uri("/webhooks/testhook"), "evt_2", "order.paid", "{}"),
              "stream"),
          send(chunked(shadow.uri("/webhooks/testhook"), "evt_3", tooLarge), "stream"),
          send(SIGNER.request(shadow.uri("/webhooks/testhook"), "evt_4", "order.paid", tooLarge), "reader"),
          send(formPost(shadow.uri("/webhooks/testhook?via=query"), "evt_5", form), "form"));

      for (HttpResponse<String> r : responses) {
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("existing endpoint handled "), r.body());
      }
      assertEquals(List.of(first, first, first, "{}", tooLarge, tooLarge,
          "via=[query] payload=[{\"id\":1}] note=[a b]"), existing.bodies);

      Map<String, Object> row = LedgerRows.event(db.dataSource(), "hookledger", "evt_1").orElseThrow();
      assertEquals("ignored", row.get("status"));
      assertEquals("shadow", row.get("source"));
      assertEquals(2, row.get("duplicates"));
      assertEquals(0, row.get("attempts"));
      assertNotNull(row.get("settled_at"));
      assertEquals(first, new String((byte[]) row.get("body"), StandardCharsets.UTF_8));
      assertEquals(1, LedgerRows.events(db.dataSource(), "hookledger"), "refused deliveries leave no row");

      InboxStatus status = Await.read("status", shadow.runtime().admin()::status);
      assertEquals(2, status.duplicates(), "duplicates the existing endpoint processed");
      assertEquals(1, status.count(EventStatus.IGNORED));
      assertEquals(0, status.waiting());
      assertEquals(List.of("received evt_1", "duplicate evt_1", "duplicate evt_1",
          "rejected SIGNATURE_MISMATCH", "rejected TOO_LARGE", "rejected TOO_LARGE", "rejected MALFORMED"), heard.events);

      // SHADOW counts refusals too, and its node writes them to the ledger for `hookledger status`
      long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
      List<dev.hookledger.runtime.admin.RefusedCount> refused = shadow.runtime().admin().refusedCounts();
      while (refused.stream().noneMatch(c -> c.reason() == RefusalReason.SIGNATURE_MISMATCH) && System.nanoTime() < deadline) {
        Thread.sleep(100);
        refused = shadow.runtime().admin().refusedCounts();
      }
      assertTrue(refused.stream().anyMatch(c -> c.provider().equals("testhook")
          && c.reason() == RefusalReason.SIGNATURE_MISMATCH && c.count() == 1), refused.toString());
    }
    assertEquals(List.of(), handler.handled, "shadow mode dispatches nothing");
  }

  @Test
  void overLimitPrefixPassedOnStaysInTheBodyBudgetWhileTheExistingEndpointRuns() throws Exception {
    // before, the prefix read of an over-limit chunked body left the budget while the existing
    // endpoint ran: 200 such requests at GitHub's 25 MiB held 5 GiB outside it
    String tooLarge = "{\"pad\":\"" + "x".repeat(400) + "\"}";
    try (ServedRuntime shadow = serve(ProcessingMode.SHADOW, new Heard())) {
      existing.reserved = () -> shadow.runtime().bodyBudget().reserved();

      HttpResponse<String> r = send(chunked(shadow.uri("/webhooks/testhook"), "evt_big", tooLarge), "stream");

      assertEquals("existing endpoint handled evt_big", r.body());
      assertEquals(List.of(tooLarge), existing.bodies, "the body passed on whole");
      assertEquals(List.of((long) LIMIT + 1), existing.reservedWhileHandling, "the prefix read is held in the budget");
      Await.until("the prefix is given back", () -> shadow.runtime().bodyBudget().reserved() == 0);
    }
  }

  @Test
  void trickledForgedBodiesPassedOnGiveTheirBudgetBackAtTheReadDeadlineSoSignedDeliveriesAreRecorded()
      throws Exception {
    // before, the passed-on stream had no deadline: two forged chunked bodies, each past the limit
    // (their prefix held in the budget) and then trickling a byte at a time, held the whole budget for
    // as long as they trickled, so every signed delivery went on unrecorded
    Duration deadline = Duration.ofSeconds(1);
    try (ServedRuntime shadow = ServedRuntime.serve(WebhookRuntime.builder()
        .dataSource(db.forRuntime())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .maxBodyBytes("testhook", LIMIT)
        .receive(r -> r.maxInFlightBodyBytes(2 * (LIMIT + 1) + 8)) // the two prefixes leave no room for a delivery
        .receive(r -> r.bodyReadTimeout(deadline))
        .handlers(handler)
        .mode(ProcessingMode.SHADOW)
        .inbox(i -> i.workers(1)), this::existingEndpoint)) {
      List<RawPost> forged = List.of(forged(shadow, "evt_forged_1"), forged(shadow, "evt_forged_2"));
      try {
        Await.until("both prefixes are held", () -> shadow.runtime().bodyBudget().reserved() == 2L * (LIMIT + 1));
        Thread trickle = new Thread(() -> {
          // a byte at a time, more often than any idle timeout, until the server stops taking them
          while (forged.stream().map(p -> p.send(new byte[] {'x'})).reduce(false, Boolean::logicalOr)) {
            try {
              Thread.sleep(deadline.toMillis() / 4);
            } catch (InterruptedException e) {
              return;
            }
          }
        }, "trickle");
        trickle.setDaemon(true);
        trickle.start();

        for (RawPost post : forged) {
          // the existing endpoint's read failed with the deadline, as a read timeout fails it
          assertEquals(500, post.awaitAnswer(Duration.ofSeconds(20)).status());
        }
        Await.until("the prefixes are given back", () -> shadow.runtime().bodyBudget().reserved() == 0);
        trickle.interrupt();

        HttpResponse<String> signed = send(SIGNER.request(shadow.uri("/webhooks/testhook"), "evt_signed",
            "order.paid", "{\"id\":\"evt_signed\"}"), "stream");
        assertEquals("existing endpoint handled evt_signed", signed.body());
        assertEquals("ignored", status("evt_signed"));
      } finally {
        forged.forEach(RawPost::close);
      }
    }
  }

  /** A chunked post with a forged signature whose first part goes past the limit at once, then stalls. */
  private static RawPost forged(ServedRuntime shadow, String eventId) {
    RawPost post = RawPost.open(shadow.uri("/"), "/webhooks/testhook", Map.of(
        TestHookAdapter.EVENT_ID, eventId, TestHookAdapter.EVENT_TYPE, "order.paid", "X-Read-With", "stream",
        TestHookAdapter.SIGNATURE, "sha256=" + "00".repeat(32)), -1);
    assertTrue(post.send(("{\"pad\":\"" + "x".repeat(LIMIT + 40)).getBytes(StandardCharsets.US_ASCII)));
    return post;
  }

  @Test
  void switchingTheSameLedgerToStoreFirstProcessesNewEventsAndNeverRerunsShadowRows() throws Exception {
    try (ServedRuntime shadow = serve(ProcessingMode.SHADOW, new Heard())) {
      send(SIGNER.request(shadow.uri("/webhooks/testhook"), "evt_old", "order.paid", "{\"n\":1}"), "stream");
      send(SIGNER.request(shadow.uri("/webhooks/testhook"), "evt_old", "order.paid", "{\"n\":1}"), "stream");
    }
    assertEquals(2, existing.bodies.size());

    try (ServedRuntime enforcing = serve(ProcessingMode.STORE_FIRST, new Heard())) {
      HttpResponse<String> fresh =
          send(SIGNER.request(enforcing.uri("/webhooks/testhook"), "evt_new", "order.paid", "{\"n\":2}"), "stream");
      HttpResponse<String> old =
          send(SIGNER.request(enforcing.uri("/webhooks/testhook"), "evt_old", "order.paid", "{\"n\":1}"), "stream");

      assertEquals("accepted\n", fresh.body());
      assertEquals("duplicate\n", old.body());
      // one worker, FIFO: anything start() resumed would have run before evt_new
      Await.until("evt_new settles", () -> "done".equals(status("evt_new")));
      assertEquals(List.of("evt_new"), handler.handled);
      assertEquals(2, existing.bodies.size(), "enforcing answers itself; the existing endpoint is not reached");
      assertEquals("ignored", status("evt_old"));
      assertEquals(2, LedgerRows.event(db.dataSource(), "hookledger", "evt_old").orElseThrow().get("duplicates"));
      InboxStatus status = Await.read("status", enforcing.runtime().admin()::status);
      assertEquals(1, status.count(EventStatus.DONE));
      assertEquals(1, status.count(EventStatus.IGNORED));
    }
  }

  @Test
  void aStoppedRuntimeInShadowModeStillPassesRequestsOn() throws Exception {
    WebhookRuntime runtime = WebhookRuntime.builder().dataSource(db.forRuntime())
        .provider(new TestHookAdapter(), Secrets.of(SECRET)).mode(ProcessingMode.SHADOW).build();
    runtime.migrate();
    // never started: the ledger cannot record, and the existing endpoint must not notice
    try (TestServer server = TestServer.start(context -> {
      ServedRuntime.filter(context, runtime);
      existingEndpoint(context);
    })) {
      HttpResponse<String> r =
          send(SIGNER.request(server.uri("/webhooks/testhook"), "evt_1", "order.paid", "{\"a\":1}"), "stream");
      assertEquals(200, r.statusCode());
      assertEquals(List.of("{\"a\":1}"), existing.bodies);
    }
    assertFalse(LedgerRows.event(db.dataSource(), "hookledger", "evt_1").isPresent());
  }

  @Test
  void aFormBeyondTheContainersLimitsIsRefusedAsTheContainerWouldNotBufferedWhole() throws Exception {
    String huge = "note=" + "x".repeat(300_000);
    String manyKeys = java.util.stream.IntStream.range(0, 1001).mapToObj(i -> "k" + i + "=v")
        .collect(Collectors.joining("&"));
    String fine = java.util.stream.IntStream.range(0, 1000).mapToObj(i -> "k" + i + "=v")
        .collect(Collectors.joining("&"));
    try (ServedRuntime shadow = serve(ProcessingMode.SHADOW, new Heard())) {
      for (String body : List.of(huge, manyKeys, fine)) {
        // over the filter's limit and chunked: the filter stops reading, the rest stays in the stream
        HttpRequest chunkedForm = HttpRequest.newBuilder(chunked(shadow.uri("/webhooks/testhook"), "evt_f", body),
            (name, value) -> true).header("Content-Type", "application/x-www-form-urlencoded").build();
        assertEquals(200, send(chunkedForm, "form-guarded").statusCode());
      }
    }
    assertEquals(List.of("refused the form: Form is larger than max length 200000",
        "refused the form: Too many form keys > 1000", "form of 1000 keys"), existing.bodies);
  }

  private ServedRuntime serve(ProcessingMode mode, Heard heard) {
    return ServedRuntime.serve(WebhookRuntime.builder()
        .dataSource(db.forRuntime())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .maxBodyBytes("testhook", LIMIT)
        .handlers(handler)
        .listener(heard)
        .mode(mode)
        .inbox(i -> i.workers(1)), this::existingEndpoint);
  }

  private void existingEndpoint(ServletContextHandler context) {
    context.addServlet(new ServletHolder(existing), "/webhooks/*");
  }

  private String status(String eventId) {
    return (String) LedgerRows.event(db.dataSource(), "hookledger", eventId).orElseThrow().get("status");
  }

  /** Sends {@code request}; the existing endpoint reads its body as {@code readWith} says. */
  private static HttpResponse<String> send(HttpRequest request, String readWith) {
    HttpRequest.Builder b = HttpRequest.newBuilder(request, (name, value) -> true).header("X-Read-With", readWith);
    if (!readWith.startsWith("form")) {
      // the container decodes application/json as UTF-8 for getReader(); the filter's replay must too
      b.header("Content-Type", "application/json");
    }
    return TestHttp.send(b.build());
  }

  /** Signed, but sent without a Content-Length, so that the filter finds the size while reading. */
  private static HttpRequest chunked(java.net.URI uri, String eventId, String body) {
    HttpRequest signed = SIGNER.request(uri, eventId, "order.paid", body);
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return HttpRequest.newBuilder(signed, (name, value) -> true)
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)))
        .build();
  }

  private static HttpRequest formPost(java.net.URI uri, String eventId, String body) {
    return HttpRequest.newBuilder(SIGNER.request(uri, eventId, "order.paid", body), (name, value) -> true)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .build();
  }

  /** The application's endpoint that predates hookledger: it reads the body as it always has. */
  static final class ExistingEndpoint extends HttpServlet {
    private static final long serialVersionUID = 1L;
    final List<String> bodies = new CopyOnWriteArrayList<>();
    final List<Long> reservedWhileHandling = new CopyOnWriteArrayList<>();
    volatile java.util.function.LongSupplier reserved;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      if (reserved != null) {
        reservedWhileHandling.add(reserved.getAsLong());
      }
      String body = switch (req.getHeader("X-Read-With")) {
        case "reader" -> req.getReader().lines().collect(Collectors.joining("\n"));
        case "form" -> req.getParameterMap().entrySet().stream()
            .map(e -> e.getKey() + "=" + List.of(e.getValue())).collect(Collectors.joining(" "));
        case "form-guarded" -> {
          try {
            yield "form of " + req.getParameterMap().size() + " keys";
          } catch (IllegalStateException e) {
            // stream the rest away, as a container does before it answers a refused form
            req.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            yield "refused the form: " + e.getMessage();
          }
        }
        default -> new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      };
      bodies.add(body);
      resp.setContentType("text/plain;charset=utf-8");
      resp.getWriter().print("existing endpoint handled " + req.getHeader(TestHookAdapter.EVENT_ID));
    }
  }

  static final class Handler {
    final List<String> handled = new CopyOnWriteArrayList<>();

    @OnEvent("*")
    void any(WebhookEvent event) {
      handled.add(event.eventId());
    }
  }

  static final class Heard implements WebhookListener {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void received(WebhookEvent event, Duration elapsed) {
      events.add("received " + event.eventId());
    }

    @Override
    public void duplicate(WebhookEvent event) {
      events.add("duplicate " + event.eventId());
    }

    @Override
    public void rejected(String provider, RejectionReason reason) {
      events.add("rejected " + reason);
    }
  }
}
