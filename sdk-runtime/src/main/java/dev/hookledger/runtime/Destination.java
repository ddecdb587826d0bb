package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.internal.settings.SettingText;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Where effects go, by name: an HTTP base URL for {@code HttpEffect.to(name, path)}, or the name an
 * {@code EffectHandler} is registered under, with how its effects are sent: timeouts, attempts and
 * backoff, a concurrency and a rate held across every node of the ledger, the idempotency header,
 * and the circuit breaker.
 *
 * <pre>{@code
 * WebhookRuntime.builder()
 *     .destination(Destination.named("receipts")
 *         .url(URI.create("https://mail.example.com"))
 *         .timeout(Duration.ofSeconds(5))
 *         .ratePerSecond(20)
 *         .concurrency(4))
 * }</pre>
 *
 * <p>Each setter returns a new value and names a bad argument. The defaults: 10 s timeout (5 s to
 * connect), backoff from 1 s doubling to 10 min, ±20 %, 16 attempts (about 1 h 40 min of waits in
 * all), 16 effects in flight across all nodes, no rate limit, {@code Idempotency-Key}, and a breaker
 * that opens after 10 consecutive failures and probes after 30 s. A destination that no builder
 * names (an absolute URL's origin) has these defaults.
 *
 * <p>Immutable and thread-safe.
 */
public final class Destination {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:/+-]{0,199}");
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  private static final RetryPolicy RETRY = RetryPolicy.builder().firstDelay(Duration.ofSeconds(1)).factor(2)
      .maxDelay(Duration.ofMinutes(10)).maxAttempts(16).jitter(0.2).build();
  /** The keys {@link #fromProperties} reads. */
  private static final Set<String> KEYS = Set.of("url", "timeout", "connect-timeout", "max-attempts", "first-delay",
      "max-delay", "concurrency", "rate-per-second", "burst", "idempotency-header", "breaker-failures",
      "breaker-probe-after");

  private final String name;
  private final URI url;
  private final Duration timeout;
  private final Duration connectTimeout;
  private final RetryPolicy retry;
  private final int concurrency;
  private final double ratePerSecond;
  private final int burst;
  private final String idempotencyHeader;
  private final int breakerFailures;
  private final Duration breakerProbeAfter;

  private Destination(String name, URI url, Duration timeout, Duration connectTimeout, RetryPolicy retry,
      int concurrency, double ratePerSecond, int burst, String idempotencyHeader, int breakerFailures,
      Duration breakerProbeAfter) {
    this.name = name;
    this.url = url;
    this.timeout = timeout;
    this.connectTimeout = connectTimeout;
    this.retry = retry;
    this.concurrency = concurrency;
    this.ratePerSecond = ratePerSecond;
    this.burst = burst;
    this.idempotencyHeader = idempotencyHeader;
    this.breakerFailures = breakerFailures;
    this.breakerProbeAfter = breakerProbeAfter;
  }

  /**
   * A destination with the defaults and no URL (enough for an {@code EffectHandler}'s).
   *
   * @param name letters, digits and {@code _ . : / + -}, starting with a letter or digit, at most 200
   */
  public static Destination named(String name) {
    requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("destination name must be letters, digits and _ . : / + - (at most 200,"
          + " starting with a letter or digit), but was '" + name + "'");
    }
    return new Destination(name, null, Duration.ofSeconds(10), Duration.ofSeconds(5), RETRY, 16, 0, 0,
        "Idempotency-Key", 10, Duration.ofSeconds(30));
  }

  /**
   * A destination from text properties, as a configuration file holds them ({@code
   * hookledger.destinations.<name>.<key>}): {@code url}, {@code timeout}, {@code connect-timeout},
   * {@code max-attempts}, {@code first-delay}, {@code max-delay}, {@code concurrency},
   * {@code rate-per-second}, {@code burst}, {@code idempotency-header}, {@code breaker-failures},
   * {@code breaker-probe-after}; durations as {@code 500ms}, {@code 30s}, {@code 5m} or ISO-8601.
   * Absent keys keep the defaults.
   *
   * @throws IllegalArgumentException naming the destination, the key and the bad value, or an unknown key
   */
  public static Destination fromProperties(String name, Map<String, String> properties) {
    requireNonNull(properties, "properties");
    Destination d = named(name);
    Set<String> unknown = new TreeSet<>(properties.keySet());
    unknown.removeAll(KEYS);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("destination '" + name + "': unknown properties " + unknown + " (known: "
          + new TreeSet<>(KEYS) + ")");
    }
    RetryPolicy.Builder retry = null;
    for (Map.Entry<String, String> p : new java.util.TreeMap<>(properties).entrySet()) {
      String v = p.getValue() == null ? "" : p.getValue().trim();
      try {
        switch (p.getKey()) {
          case "url" -> d = d.url(URI.create(v));
          case "timeout" -> d = d.timeout(SettingText.duration(v));
          case "connect-timeout" -> d = d.connectTimeout(SettingText.duration(v));
          case "concurrency" -> d = d.concurrency(SettingText.whole(v));
          case "rate-per-second" -> d = d.ratePerSecond(SettingText.decimal(v));
          case "burst" -> d = d.burst(SettingText.whole(v));
          case "idempotency-header" -> d = d.idempotencyHeader(v);
          case "breaker-failures" -> d = d.breaker(SettingText.whole(v), d.breakerProbeAfter);
          case "breaker-probe-after" -> d = d.breaker(d.breakerFailures, SettingText.duration(v));
          default -> {
            retry = retry != null ? retry : copy(d.retry);
            switch (p.getKey()) {
              case "max-attempts" -> retry.maxAttempts(SettingText.whole(v));
              case "first-delay" -> retry.firstDelay(SettingText.duration(v));
              default -> retry.maxDelay(SettingText.duration(v));
            }
          }
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("destination '" + name + "': " + p.getKey() + ": " + e.getMessage(), e);
      }
    }
    if (retry != null) {
      try {
        d = d.retry(retry.build());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("destination '" + name + "': " + e.getMessage(), e);
      }
    }
    return d;
  }

  /** The name effects give ({@code HttpEffect.to(name, ...)}) or the {@code EffectHandler}'s. */
  public String name() {
    return name;
  }

  /** The base URL that an effect's path is appended to; empty for an {@code EffectHandler}'s destination. */
  public Optional<URI> url() {
    return Optional.ofNullable(url);
  }

  /** How long one request may take, from sending to the end of the answer's headers. */
  public Duration timeout() {
    return timeout;
  }

  /** How long opening a connection may take. */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** The backoff between attempts and the number of attempts before an effect is {@code dead}. */
  public RetryPolicy retry() {
    return retry;
  }

  /** Attempts at most before an effect is {@code dead}: {@code retry().maxAttempts()}. */
  public int maxAttempts() {
    return retry.maxAttempts();
  }

  /** Effects in flight at once across all nodes, at least 1. */
  public int concurrency() {
    return concurrency;
  }

  /** Effects started per second across all nodes; 0 for no limit. */
  public double ratePerSecond() {
    return ratePerSecond;
  }

  /** Effects that may start at once after a quiet spell, with a rate: {@code burst} if set, else the rate rounded up. */
  public int burst() {
    return burst > 0 ? burst : (int) Math.max(1, Math.ceil(ratePerSecond));
  }

  /** The header the idempotency key is sent in. */
  public String idempotencyHeader() {
    return idempotencyHeader;
  }

  /** Consecutive failures that open the breaker; 0 for no breaker. */
  public int breakerFailures() {
    return breakerFailures;
  }

  /** How long an open breaker waits before it lets one probe through. */
  public Duration breakerProbeAfter() {
    return breakerProbeAfter;
  }

  /** The base URL an effect's path is appended to; an {@code https} or {@code http} URL. */
  public Destination url(URI url) {
    requireNonNull(url, "url");
    if (!url.isAbsolute() || url.getHost() == null || !Set.of("http", "https").contains(url.getScheme()
        .toLowerCase(Locale.ROOT)) || url.getRawQuery() != null || url.getRawFragment() != null) {
      throw new IllegalArgumentException("url must be an absolute http or https URL without query or fragment,"
          + " but was '" + url + "'");
    }
    return new Destination(name, url, timeout, connectTimeout, retry, concurrency, ratePerSecond, burst,
        idempotencyHeader, breakerFailures, breakerProbeAfter);
  }

  /** How long one request may take, at least 1 ms; default 10 s. */
  public Destination timeout(Duration timeout) {
    return new Destination(name, url, positive("timeout", timeout), connectTimeout, retry, concurrency, ratePerSecond,
        burst, idempotencyHeader, breakerFailures, breakerProbeAfter);
  }

  /** How long opening a connection may take, at least 1 ms; default 5 s. */
  public Destination connectTimeout(Duration timeout) {
    return new Destination(name, url, this.timeout, positive("connectTimeout", timeout), retry, concurrency,
        ratePerSecond, burst, idempotencyHeader, breakerFailures, breakerProbeAfter);
  }

  /** The backoff and attempts; default 1 s, ×2, capped at 10 min, ±20 %, 16 attempts. */
  public Destination retry(RetryPolicy retry) {
    requireNonNull(retry, "retry");
    return new Destination(name, url, timeout, connectTimeout, retry, concurrency, ratePerSecond, burst,
        idempotencyHeader, breakerFailures, breakerProbeAfter);
  }

  /** Attempts at most, counting the first, with the current backoff; default 16. */
  public Destination maxAttempts(int maxAttempts) {
    return retry(copy(retry).maxAttempts(maxAttempts).build());
  }

  /** Effects in flight at once across all nodes, at least 1; default 16. */
  public Destination concurrency(int concurrency) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be >= 1, but was " + concurrency);
    }
    return new Destination(name, url, timeout, connectTimeout, retry, concurrency, ratePerSecond, burst,
        idempotencyHeader, breakerFailures, breakerProbeAfter);
  }

  /** Effects started per second across all nodes, 0 for no limit (the default). */
  public Destination ratePerSecond(double ratePerSecond) {
    if (!(ratePerSecond >= 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("ratePerSecond must be >= 0 and finite, but was " + ratePerSecond);
    }
    return new Destination(name, url, timeout, connectTimeout, retry, concurrency, ratePerSecond, burst,
        idempotencyHeader, breakerFailures, breakerProbeAfter);
  }

  /** Effects that may start at once after a quiet spell, at least 1; default: the rate rounded up. */
  public Destination burst(int burst) {
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be >= 1, but was " + burst);
    }
    return new Destination(name, url, timeout, connectTimeout, retry, concurrency, ratePerSecond, burst,
        idempotencyHeader, breakerFailures, breakerProbeAfter);
  }

  /** The header the idempotency key is sent in, an HTTP token; default {@code Idempotency-Key}. */
  public Destination idempotencyHeader(String header) {
    requireNonNull(header, "header");
    if (!TOKEN.matcher(header).matches()) {
      throw new IllegalArgumentException("idempotencyHeader must be an HTTP header name, but was '" + header + "'");
    }
    return new Destination(name, url, timeout, connectTimeout, retry, concurrency, ratePerSecond, burst, header,
        breakerFailures, breakerProbeAfter);
  }

  /**
   * The circuit breaker: after {@code failures} consecutive failed attempts (0 for no breaker) the
   * destination is paused, its effects wait (they use no attempts and never die of it), and after
   * {@code probeAfter} one effect is let through; its success closes the breaker, its failure opens
   * it again. Default 10 failures, 30 s.
   */
  public Destination breaker(int failures, Duration probeAfter) {
    if (failures < 0) {
      throw new IllegalArgumentException("breaker failures must be >= 0, but was " + failures);
    }
    return new Destination(name, url, timeout, connectTimeout, retry, concurrency, ratePerSecond, burst,
        idempotencyHeader, failures, positive("probeAfter", probeAfter));
  }

  @Override
  public String toString() {
    return "Destination[" + name + (url == null ? "" : ", " + url) + "]";
  }

  private static Duration positive(String what, Duration d) {
    requireNonNull(d, what);
    if (d.toMillis() < 1) {
      throw new IllegalArgumentException(what + " must be >= 1 ms, but was " + d);
    }
    return d;
  }

  private static RetryPolicy.Builder copy(RetryPolicy p) {
    return RetryPolicy.builder().firstDelay(p.firstDelay()).factor(p.factor()).maxDelay(p.maxDelay())
        .maxAttempts(p.maxAttempts()).jitter(p.jitter());
  }
}
