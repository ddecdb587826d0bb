package dev.hookledger.runtime.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.HttpEffect;
import dev.hookledger.runtime.Destination;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A destination from a name and text properties, as configuration holds it; each bad value named. */
class DestinationTest {
  @Test
  void readsEveryPropertyAndKeepsTheDefaultsOfTheRest() {
    Destination d = Destination.fromProperties("receipts", Map.of("url", "https://mail.example.com/api",
        "timeout", "5s", "max-attempts", "4", "first-delay", "200ms", "rate-per-second", "2.5", "concurrency", "3",
        "idempotency-header", "X-Key", "breaker-failures", "6"));
    assertEquals(URI.create("https://mail.example.com/api"), d.url().orElseThrow());
    assertEquals(Duration.ofSeconds(5), d.timeout());
    assertEquals(Duration.ofSeconds(5), d.connectTimeout(), "the default");
    assertEquals(4, d.maxAttempts());
    assertEquals(Duration.ofMillis(200), d.retry().firstDelay());
    assertEquals(2.5, d.ratePerSecond());
    assertEquals(3, d.burst(), "the rate rounded up");
    assertEquals(3, d.concurrency());
    assertEquals("X-Key", d.idempotencyHeader());
    assertEquals(6, d.breakerFailures());
    assertEquals(Duration.ofSeconds(30), d.breakerProbeAfter(), "the default");
  }

  @Test
  void namesTheDestinationThePropertyAndTheBadValue() {
    assertEquals("destination 'receipts': max-attempts: maxAttempts must be >= 1, but was 0",
        assertThrows(IllegalArgumentException.class,
            () -> Destination.fromProperties("receipts", Map.of("max-attempts", "0"))).getMessage());
    assertEquals("destination 'receipts': timeout: must be a duration such as 500ms, 30s, 5m, 2h, 30d or PT30S,"
        + " but was 'soon'", assertThrows(IllegalArgumentException.class,
            () -> Destination.fromProperties("receipts", Map.of("timeout", "soon"))).getMessage());
    assertEquals("destination 'receipts': unknown properties [retries] (known: [breaker-failures,"
        + " breaker-probe-after, burst, concurrency, connect-timeout, first-delay, idempotency-header, max-attempts,"
        + " max-delay, rate-per-second, timeout, url])", assertThrows(IllegalArgumentException.class,
            () -> Destination.fromProperties("receipts", Map.of("retries", "3"))).getMessage());
    assertEquals("url must be an absolute http or https URL without query or fragment, but was 'ftp://x'",
        assertThrows(IllegalArgumentException.class,
            () -> Destination.named("receipts").url(URI.create("ftp://x"))).getMessage());
  }

  @Test
  void anHttpEffectRefusesTheClientsOwnHeadersAndAnAbsoluteUrlIsItsOriginsDestination() {
    assertEquals("header Host is set by the HTTP client and cannot be set here", assertThrows(
        IllegalArgumentException.class, () -> HttpEffect.to("receipts", "/r").header("Host", "x")).getMessage());
    assertEquals("path must start with '/', but was 'r'", assertThrows(IllegalArgumentException.class,
        () -> HttpEffect.to("receipts", "r")).getMessage());
    assertEquals("https://api.example.com:8443",
        HttpEffect.toUrl(URI.create("HTTPS://API.example.com:8443/v1/x?y=1")).build().destination());
  }
}
