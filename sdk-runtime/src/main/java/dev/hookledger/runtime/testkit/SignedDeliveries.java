package dev.hookledger.runtime.testkit;

import static java.util.Objects.requireNonNull;

import dev.hookledger.InboundDelivery;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.EventDetail;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.admin.InboxAdmin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Delivers signed webhooks to a runtime in an application's tests, and waits until its handlers
 * have settled them: the published counterpart of hookledger's own test helpers. Deliveries come
 * from a provider's public test signer ({@code StripeTestSigner}, {@code GitHubTestSigner},
 * {@code ShopifyTestSigner}, {@code StandardWebhooksTestSigner}), so they pass the same verification
 * as the provider's.
 *
 * <pre>{@code
 * SignedDeliveries deliveries = SignedDeliveries.to(runtime);
 * EventSummary settled = deliveries.deliverAndSettle("stripe",
 *     StripeTestSigner.withSecrets(secret).delivery(invoicePaidJson, Instant.now()));
 * assertEquals("done", settled.status());            // the handler's effect is committed
 *
 * SignedDeliveries.Answer answer = SignedDeliveries.post(URI.create("http://127.0.0.1:8080"), delivery);
 * assertEquals(200, answer.status());                 // through the filter, over HTTP
 * }</pre>
 *
 * <p>Thread-safe. Waiting polls the ledger ({@link InboxAdmin#show}); it never sleeps longer than
 * the timeout (10 s by default).
 */
public final class SignedDeliveries {
  private static final Duration POLL = Duration.ofMillis(20);

  private final WebhookRuntime runtime;
  private final InboxAdmin admin;
  private final Duration timeout;

  private SignedDeliveries(WebhookRuntime runtime, Duration timeout) {
    this.runtime = runtime;
    this.admin = runtime.admin();
    this.timeout = timeout;
  }

  /** Deliveries to a built (and, to process, started) runtime. */
  public static SignedDeliveries to(WebhookRuntime runtime) {
    return new SignedDeliveries(requireNonNull(runtime, "runtime"), Duration.ofSeconds(10));
  }

  /** The same, waiting at most {@code timeout} for an event to settle. */
  public SignedDeliveries timeout(Duration timeout) {
    requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, but was " + timeout);
    }
    return new SignedDeliveries(runtime, timeout);
  }

  /**
   * Verifies and records the delivery as the filter would ({@link WebhookRuntime#receive}).
   *
   * @throws dev.hookledger.DeliveryRejectedException if the signature or the delivery is refused
   */
  public Receipt deliver(String provider, InboundDelivery delivery) {
    return runtime.receive(requireNonNull(provider, "provider"), requireNonNull(delivery, "delivery"));
  }

  /**
   * Delivers and waits until the event is settled: {@code done}, {@code ignored}, {@code stale} or
   * {@code dead}. A duplicate delivery returns the earlier event's state.
   *
   * @return the event as the ledger holds it once settled
   * @throws IllegalStateException if it is not settled within the timeout, with its status, attempts
   *     and last error
   */
  public EventSummary deliverAndSettle(String provider, InboundDelivery delivery) {
    return awaitSettled(deliver(provider, delivery).event());
  }

  /**
   * Waits until {@code event} is settled. A read of the ledger that fails with a
   * {@link LedgerUnavailableException} (the admin's read deadline passed on a loaded database) is
   * read again at the next poll, within the timeout.
   *
   * @throws IllegalStateException if it is not settled within the timeout; its message names the
   *     event's last status read, or the last read's failure
   */
  public EventSummary awaitSettled(WebhookEvent event) {
    requireNonNull(event, "event");
    long deadline = System.nanoTime() + timeout.toNanos();
    Optional<EventSummary> last = Optional.empty();
    LedgerUnavailableException lastFailure = null;
    while (true) {
      try {
        last = admin.show(event.provider(), event.scope(), event.eventId()).map(EventDetail::summary);
        lastFailure = null;
      } catch (LedgerUnavailableException e) {
        lastFailure = e;
      }
      if (last.isPresent() && (last.get().status().isSettled() || last.get().status() == EventStatus.DEAD)) {
        return last.get();
      }
      if (System.nanoTime() - deadline >= 0) {
        String seen = lastFailure != null ? "the last read failed: " + lastFailure.getMessage()
            : last.map(s -> "status " + s.status().name().toLowerCase(java.util.Locale.ROOT) + ", " + s.attempts()
                + " attempts" + s.lastError().map(e -> ", last error: " + e.lines().findFirst().orElse("")).orElse(""))
            .orElse("not in the ledger");
        throw new IllegalStateException(event + " is not settled after " + timeout.toMillis() + " ms: " + seen
            + " (is the runtime started?)", lastFailure);
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + event, e);
      }
    }
  }

  /** What a server answered to one posted delivery. */
  public record Answer(int status, String body) {}

  /**
   * Posts the delivery's exact bytes and headers to {@code base} + its path ({@code /webhooks/stripe})
   * over HTTP, as the provider would, and returns the answer.
   *
   * @param base the server, e.g. {@code http://127.0.0.1:8080}
   */
  public static Answer post(URI base, InboundDelivery delivery) {
    requireNonNull(base, "base");
    requireNonNull(delivery, "delivery");
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(delivery.path()))
        .timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofByteArray(delivery.bodyBytes()));
    delivery.headers().asMap().forEach((name, values) -> values.forEach(v -> request.header(name, v)));
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    try {
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot post " + delivery + " to " + base, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while posting " + delivery, e);
    }
  }
}
