package dev.hookledger.samples.traffic;

import static java.util.Objects.requireNonNull;

import dev.hookledger.InboundDelivery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Posts signed deliveries (as the providers' test signers build them) to a hookledger server over
 * real HTTP, as the provider would, and reads the answer. Thread-safe: one client serves many
 * concurrent senders.
 */
public final class WebhookClient {
  private final URI base;
  private final HttpClient http;

  /** A client of the server at {@code base}, e.g. {@code http://127.0.0.1:8080}. */
  public WebhookClient(URI base) {
    this.base = requireNonNull(base, "base");
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  /** The server's answer to one delivery, and how long it took to come. */
  public record Answer(int status, String body, Duration latency) {
    /** The answer as a provider's log would show it: {@code 200 accepted}. */
    @Override
    public String toString() {
      return status + (body.isBlank() ? "" : " " + body.strip());
    }
  }

  /** Posts {@code delivery}'s exact bytes and headers to its path and waits for the answer. */
  public Answer send(InboundDelivery delivery) {
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(delivery.path()))
        .timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofByteArray(delivery.bodyBytes()));
    delivery.headers().asMap().forEach((name, values) -> values.forEach(v -> request.header(name, v)));
    long start = System.nanoTime();
    try {
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.body(), Duration.ofNanos(System.nanoTime() - start));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot post " + delivery + " to " + base, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while posting " + delivery, e);
    }
  }

  /** {@code GET path} on the server, for pages such as {@code /sample/state.json}. */
  public String get(String path) {
    return get(path, null);
  }

  /** {@code GET path} with {@code Authorization: Bearer <token>} (none if null), for the admin page. */
  public String get(String path, String bearerToken) {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30));
    if (bearerToken != null) {
      b.header("Authorization", "Bearer " + bearerToken);
    }
    HttpRequest request = b.build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException("GET " + path + " answered " + response.statusCode());
      }
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot GET " + path + " from " + base, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while getting " + path, e);
    }
  }

  public URI base() {
    return base;
  }
}
