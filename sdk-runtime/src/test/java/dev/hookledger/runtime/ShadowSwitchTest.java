package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import dev.hookledger.runtime.testing.TestServer;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * SHADOW looks at what the existing endpoint answered: a delivery it failed stays processable, so
 * that the provider's redelivery after the switch to STORE_FIRST runs the handlers exactly once,
 * and one it handled is never run again.
 */
class ShadowSwitchTest {
  static final String SECRET = "switch-secret";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);

  final TestDatabase.Database db = TestDatabase.create();
  final Handler handler = new Handler();
  final Existing existing = new Existing();

  @Test
  void existingEndpointFailsThenTheModeSwitchesAndTheRedeliveryRunsTheHandlerOnce() throws Exception {
    existing.answer.set("500");
    try (ServedRuntime shadow = serve(ProcessingMode.SHADOW)) {
      HttpResponse<String> failed = deliver(shadow, "evt_failed");
      assertEquals(500, failed.statusCode(), "the provider sees the existing endpoint's answer");
    }
    assertEquals(Optional.empty(), row("evt_failed"), "nothing recorded that would make the redelivery a duplicate");

    existing.answer.set("200");
    try (ServedRuntime enforcing = serve(ProcessingMode.STORE_FIRST)) {
      assertEquals("accepted\n", deliver(enforcing, "evt_failed").body()); // the provider's retry
      Await.until("evt_failed is done", () -> row("evt_failed").map(r -> "done".equals(r.get("status"))).orElse(false));
      assertEquals("duplicate\n", deliver(enforcing, "evt_failed").body()); // and one more
    }
    assertEquals(List.of("evt_failed"), handler.handled, "the handler ran exactly once");
    assertEquals(List.of(), existing.handled, "the existing endpoint never handled it, and is not reached after the switch");
    assertEquals("delivery", row("evt_failed").orElseThrow().get("source"));
  }

  @Test
  void existingEndpointThatThrowsLeavesTheEventProcessableToo() throws Exception {
    existing.answer.set("throw");
    try (ServedRuntime shadow = serve(ProcessingMode.SHADOW)) {
      assertEquals(500, deliver(shadow, "evt_threw").statusCode());
    }
    assertEquals(Optional.empty(), row("evt_threw"));
  }

  @Test
  void deliveryTheExistingEndpointFailedAndThenHandledOnARetryIsNeverRunAfterTheSwitch() throws Exception {
    try (ServedRuntime shadow = serve(ProcessingMode.SHADOW)) {
      existing.answer.set("503");
      assertEquals(503, deliver(shadow, "evt_retried").statusCode());
      existing.answer.set("204");
      assertEquals(204, deliver(shadow, "evt_retried").statusCode()); // the provider's retry, still shadowed
    }
    assertEquals("ignored", row("evt_retried").orElseThrow().get("status"));
    assertEquals(0, row("evt_retried").orElseThrow().get("duplicates"), "the first copy left nothing to count against");

    try (ServedRuntime enforcing = serve(ProcessingMode.STORE_FIRST)) {
      assertEquals("duplicate\n", deliver(enforcing, "evt_retried").body());
    }
    assertEquals(List.of(), handler.handled);
    assertEquals(List.of("evt_retried"), existing.handled, "handled once, by its retry");
  }

  @Test
  void aFailedDuplicateLeavesTheRowTheFirstCopyRecorded() throws Exception {
    try (ServedRuntime shadow = serve(ProcessingMode.SHADOW)) {
      existing.answer.set("200");
      assertEquals(200, deliver(shadow, "evt_dup").statusCode());
      existing.answer.set("500");
      assertEquals(500, deliver(shadow, "evt_dup").statusCode());
    }
    assertEquals("ignored", row("evt_dup").orElseThrow().get("status"), "the first copy was handled");
    assertFalse(handler.handled.contains("evt_dup"));
  }

  @Test
  void asynchronousEndpointIsJudgedWhenItsResponseCompletes() throws Exception {
    WebhookRuntime runtime = WebhookRuntime.builder().dataSource(db.dataSource())
        .provider(new TestHookAdapter(), Secrets.of(SECRET)).mode(ProcessingMode.SHADOW).build();
    runtime.migrate();
    runtime.start();
    FilterHolder filter = new FilterHolder(new WebhookFilter(runtime));
    filter.setAsyncSupported(true);
    ServletHolder endpoint = new ServletHolder(new AsyncExisting());
    endpoint.setAsyncSupported(true);
    try (TestServer server = TestServer.start(context -> {
      context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(endpoint, "/webhooks/*");
    })) {
      HttpResponse<String> failed = TestHttp.send(SIGNER.request(server.uri("/webhooks/testhook"), "evt_async_failed",
          "order.paid", "{\"answer\":502}"));
      HttpResponse<String> handled = TestHttp.send(SIGNER.request(server.uri("/webhooks/testhook"), "evt_async_ok",
          "order.paid", "{\"answer\":200}"));
      assertEquals(502, failed.statusCode());
      assertEquals(200, handled.statusCode());
    } finally {
      runtime.close();
    }
    Await.until("the failed one's row is taken back", () -> row("evt_async_failed").isEmpty());
    assertEquals("ignored", row("evt_async_ok").orElseThrow().get("status"));
  }

  private ServedRuntime serve(ProcessingMode mode) {
    return ServedRuntime.serve(WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .handlers(handler)
        .mode(mode)
        .inbox(i -> i.workers(1)), context -> context.addServlet(new ServletHolder(existing), "/webhooks/*"));
  }

  private static HttpResponse<String> deliver(ServedRuntime served, String id) {
    return TestHttp.send(SIGNER.request(served.uri("/webhooks/testhook"), id, "order.paid", "{}"));
  }

  private Optional<java.util.Map<String, Object>> row(String id) {
    return LedgerRows.event(db.dataSource(), "hookledger", id);
  }

  /** The application's endpoint from before hookledger, answering as the test tells it. */
  static final class Existing extends HttpServlet {
    private static final long serialVersionUID = 1L;
    final AtomicReference<String> answer = new AtomicReference<>("200");
    final List<String> handled = new CopyOnWriteArrayList<>();

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException, ServletException {
      req.getInputStream().readAllBytes();
      String a = answer.get();
      if (a.equals("throw")) {
        throw new ServletException("the existing endpoint's database is down");
      }
      int status = Integer.parseInt(a);
      if (status < 300) {
        handled.add(req.getHeader(TestHookAdapter.EVENT_ID));
      }
      resp.setStatus(status);
    }
  }

  /** Answers from another thread, with the status the body names. */
  static final class AsyncExisting extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      String body = new String(req.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      int status = Integer.parseInt(body.replaceAll("\\D", ""));
      AsyncContext async = req.startAsync();
      async.start(() -> {
        ((HttpServletResponse) async.getResponse()).setStatus(status);
        async.complete();
      });
    }
  }

  static final class Handler {
    final List<String> handled = new CopyOnWriteArrayList<>();

    @OnEvent("*")
    void any(WebhookEvent event) {
      handled.add(event.eventId());
    }
  }
}
