package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestServer;
import dev.hookledger.spi.Signatures;
import dev.hookledger.spi.testkit.FuzzedDelivery;
import jakarta.servlet.DispatcherType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzzes the filter in a real Jetty (through an in-memory connector, so that each input costs no
 * socket) in front of a real runtime and ledger: whatever the method, path, headers, body and framing,
 * the answer is one of 200, 400, 401, 404, 405, 413 or 503. Inputs use {@link FuzzedDelivery}'s
 * format ({@code @sign: yes} signs for the test provider, {@code @chunked: yes} frames the body
 * chunked). The budget is small, so chunked bodies of a few KiB meet the 503 path.
 */
class WebhookFilterFuzzTest {
  private static final String SECRET = "whsec-filter-fuzz";
  private static final Set<Integer> ANSWERS = Set.of(200, 400, 401, 404, 405, 413, 503);
  private static final List<String> FRAMING = List.of("content-length", "transfer-encoding", "host", "connection",
      "expect");
  private static TestDatabase.Database db;
  private static WebhookRuntime runtime;
  private static Server server;
  private static LocalConnector connector;

  @BeforeAll
  static void start() throws Exception {
    db = TestDatabase.create();
    runtime = WebhookRuntime.builder()
        .jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .maxBodyBytes("testhook", 4096)
        .receive(r -> r.maxInFlightBodyBytes(6000))
        .inbox(i -> i.workers(0))
        .build();
    runtime.migrate();
    runtime.start();
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServlet(new ServletHolder(new TestServer.DownstreamServlet()), "/*");
    context.addFilter(new FilterHolder(new WebhookFilter(runtime)), "/*", EnumSet.of(DispatcherType.REQUEST));
    server.setHandler(context);
    server.start();
  }

  @AfterAll
  static void stop() throws Exception {
    server.stop();
    runtime.close();
  }

  @FuzzTest(maxDuration = "3m")
  void anyRequestIsAnsweredWithAKnownStatus(byte[] input) throws Exception {
    FuzzedDelivery fuzzed = FuzzedDelivery.parse(input, "/webhooks/testhook");
    ByteBuffer answer = connector.getResponse(ByteBuffer.wrap(request(fuzzed)), 20, TimeUnit.SECONDS);
    String head = answer == null ? "" : StandardCharsets.ISO_8859_1.decode(answer).toString();
    int status = head.startsWith("HTTP/1.1 ") && head.length() >= 12 ? Integer.parseInt(head.substring(9, 12)) : -1;
    assertTrue(ANSWERS.contains(status), "answered " + (head.isEmpty() ? "nothing" : head.lines().findFirst().orElse("")));
  }

  /** The raw HTTP/1.1 request: framing the harness owns, the fuzzed headers within Jetty's limits. */
  private static byte[] request(FuzzedDelivery fuzzed) {
    byte[] body = fuzzed.delivery().bodyBytes();
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 512);
    StringBuilder head = new StringBuilder(fuzzed.delivery().method()).append(' ')
        .append(cut(fuzzed.delivery().path(), 1024)).append(" HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n");
    StringBuilder headers = new StringBuilder();
    fuzzed.delivery().headers().asMap().forEach((name, values) -> {
      if (!FRAMING.contains(name.toLowerCase(Locale.ROOT))) {
        values.forEach(v -> headers.append(name).append(": ").append(v.replace("\r", "")).append("\r\n"));
      }
    });
    head.append(cut(headers.toString(), 4096).replaceAll("[^\\n]*$", ""));
    if (fuzzed.sign()) {
      head.append(TestHookAdapter.SIGNATURE).append(": sha256=")
          .append(Signatures.hex(Signatures.hmacSha256(Secrets.of(SECRET).list().get(0), ByteBuffer.wrap(body))))
          .append("\r\n");
    }
    head.append(fuzzed.chunked() ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n");
    head.append("\r\n");
    out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (fuzzed.chunked()) {
      for (int at = 0; at < body.length; at += 1000) {
        int n = Math.min(1000, body.length - at);
        out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(body, at, n);
        out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      }
      out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    } else {
      out.writeBytes(body);
    }
    return out.toByteArray();
  }

  private static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
