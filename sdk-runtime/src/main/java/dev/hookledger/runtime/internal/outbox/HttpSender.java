package dev.hookledger.runtime.internal.outbox;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.Destination;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sends an HTTP effect with the JDK's {@link HttpClient} (one per destination, for its connect
 * timeout), its idempotency key in the destination's header, and judges the answer: 2xx done; 408,
 * 409, 425, 429 and 5xx retried (honouring {@code Retry-After}); any other answer (a 4xx, a redirect,
 * which is never followed) refused for good; a timeout or a connection error retried. The first
 * {@value AttemptResult#EXCERPT_BYTES} bytes of the answer are kept; the rest is not read.
 * Thread-safe.
 */
final class HttpSender {
  private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {};

  private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();
  private final Clock clock;

  HttpSender(Clock clock) {
    this.clock = clock;
  }

  AttemptResult send(ClaimedEffect e, Destination d) {
    URI uri;
    HttpRequest request;
    try {
      uri = e.url().startsWith("/") ? URI.create(stripSlash(d.url().orElseThrow(() -> new IllegalStateException(
          "destination '" + d.name() + "' has no url")).toString()) + e.url()) : URI.create(e.url());
      HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(d.timeout());
      Map<String, String> headers = Json.MAPPER.readValue(e.headers(), HEADERS);
      headers.forEach((name, value) -> {
        if (!name.equalsIgnoreCase(d.idempotencyHeader())) {
          b.header(name, value);
        }
      });
      b.header(d.idempotencyHeader(), e.idempotencyKey());
      if (e.contentType() != null) {
        b.header("Content-Type", e.contentType());
      }
      byte[] body = e.body() == null ? new byte[0] : e.body();
      request = b.method(e.method(), body.length == 0 && e.contentType() == null ? HttpRequest.BodyPublishers.noBody()
          : HttpRequest.BodyPublishers.ofByteArray(body)).build();
    } catch (IOException | RuntimeException ex) {
      return AttemptResult.permanent(null, null, "cannot make the request: " + ex.getClass().getSimpleName()
          + (ex.getMessage() == null ? "" : ": " + ex.getMessage()));
    }
    HttpResponse<InputStream> response;
    try {
      response = client(d).send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (HttpConnectTimeoutException ex) {
      return AttemptResult.retry(null, null, "connect timeout after " + d.connectTimeout().toMillis() + " ms to "
          + uri.getHost(), null);
    } catch (HttpTimeoutException ex) {
      return AttemptResult.retry(null, null, "no answer within " + d.timeout().toMillis() + " ms from "
          + uri.getHost(), null);
    } catch (ConnectException ex) {
      return AttemptResult.retry(null, null, "cannot connect to " + uri.getHost() + ":" + port(uri) + ": "
          + (ex.getMessage() == null ? "connection refused" : ex.getMessage()), null);
    } catch (IOException ex) {
      return AttemptResult.retry(null, null, ex.getClass().getSimpleName() + (ex.getMessage() == null ? ""
          : ": " + ex.getMessage()), null);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return AttemptResult.retry(null, null, "interrupted while sending (the node is stopping)", null);
    }
    int status = response.statusCode();
    String excerpt = excerpt(response.body());
    if (status >= 200 && status < 300) {
      return AttemptResult.done(status, excerpt);
    }
    String error = "HTTP " + status + " from " + e.method() + " " + uri.getHost() + uri.getRawPath();
    if (status == 408 || status == 409 || status == 425 || status == 429 || status >= 500) {
      return AttemptResult.retry(status, excerpt, error,
          RetryAfter.parse(response.headers().firstValue("Retry-After").orElse(null), clock.instant()).orElse(null));
    }
    return AttemptResult.permanent(status, excerpt, error);
  }

  private HttpClient client(Destination d) {
    // one client per destination and connect timeout; a destination's settings never change in a runtime
    return clients.computeIfAbsent(d.name(), n -> HttpClient.newBuilder()
        .connectTimeout(d.connectTimeout())
        .followRedirects(HttpClient.Redirect.NEVER)
        .build());
  }

  private static String excerpt(InputStream body) {
    try (InputStream in = body) {
      byte[] bytes = in.readNBytes(AttemptResult.EXCERPT_BYTES);
      return bytes.length == 0 ? null : new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException ex) {
      return null;
    }
  }

  private static String stripSlash(String base) {
    return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }

  private static int port(URI uri) {
    return uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }
}
