package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * The filter and SHADOW are one door: the same requests are refused for the same reasons, in the
 * same order of checks (the headers before the size a body declares), whether the filter answers
 * them or SHADOW passes them on.
 */
class OneDoorTest {
  static final int LIMIT = 64;

  final TestDatabase.Database db = TestDatabase.create();

  @Test
  void shadowCountsTheRefusalsEnforcingWouldMake() throws Exception {
    List<RefusalCount> enforcing;
    List<RefusalCount> shadow;
    try (ServedRuntime served = serve(ProcessingMode.STORE_FIRST, "enforcing")) {
      send(served);
      enforcing = served.runtime().refusedDeliveries().counts();
    }
    try (ServedRuntime served = serve(ProcessingMode.SHADOW, "shadow")) {
      send(served);
      shadow = served.runtime().refusedDeliveries().counts();
    }
    assertEquals(List.of(new RefusalCount("testhook", RefusalReason.SIGNATURE_MISSING, 1)), enforcing);
    assertEquals(enforcing, shadow);
  }

  /** No signature, and a body over the limit: the header check refuses it first. */
  private static void send(ServedRuntime served) throws IOException, InterruptedException {
    HttpRequest unsigned = HttpRequest.newBuilder(served.uri("/webhooks/testhook"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"pad\":\"" + "x".repeat(2 * LIMIT) + "\"}")).build();
    HttpClient.newHttpClient().send(unsigned, HttpResponse.BodyHandlers.ofString());
  }

  private ServedRuntime serve(ProcessingMode mode, String schema) {
    return ServedRuntime.serve(WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema(schema)
        .provider(new TestHookAdapter(), Secrets.of("one-door-secret"))
        .maxBodyBytes("testhook", LIMIT)
        .mode(mode)
        .inbox(i -> i.workers(0)), context -> context.addServlet(new ServletHolder(new HttpServlet() {
          @Override
          protected void doPost(HttpServletRequest req, HttpServletResponse resp) {
            resp.setStatus(204);
          }
        }), "/webhooks/*"));
  }
}
