package dev.hookledger.runtime.spring.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A receipts API for the outbox's HTTP effects: a real HTTP server on a free local port that answers
 * 200 to every request and keeps the last one per invoice id (the {@code "invoice"} of its JSON body).
 */
final class ReceiptSink {
  private static final Pattern INVOICE = Pattern.compile("\"invoice\":\"([^\"]+)\"");

  /** One request as the sink saw it. */
  record Request(String path, String idempotencyKey, String body) {}

  private final HttpServer server;
  private final Map<String, Request> byInvoice = new ConcurrentHashMap<>();

  private ReceiptSink(HttpServer server) {
    this.server = server;
  }

  static ReceiptSink start() {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      ReceiptSink sink = new ReceiptSink(server);
      server.createContext("/", exchange -> {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Matcher m = INVOICE.matcher(body);
        if (m.find()) {
          sink.byInvoice.put(m.group(1), new Request(exchange.getRequestURI().getPath(),
              exchange.getRequestHeaders().getFirst("X-Receipt-Key"), body));
        }
        exchange.sendResponseHeaders(200, -1);
        exchange.close();
      });
      server.setExecutor(null); // the server's own thread: the JVM's exit ends it, as the test database's
      server.start();
      return sink;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The last request for {@code invoice}, or null. */
  Request received(String invoice) {
    return byInvoice.get(invoice);
  }
}
