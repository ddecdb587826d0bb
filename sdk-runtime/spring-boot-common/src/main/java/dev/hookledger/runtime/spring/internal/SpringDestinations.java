package dev.hookledger.runtime.spring.internal;

import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.spring.HookledgerProperties;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The outbox's destinations of {@code hookledger.destinations.<name>.*}, read by
 * {@link Destination#fromProperties} (the one owner of their keys, defaults and checks), so that a
 * destination reads the same from Spring's properties as from every other configuration door.
 */
public final class SpringDestinations {
  private SpringDestinations() {}

  /**
   * Adds each configured destination to {@code b}; a bad one fails naming its property (public for the
   * starters' shared door test).
   */
  public static void apply(WebhookRuntimeBuilder b, Map<String, HookledgerProperties.Destination> configured) {
    configured.forEach((name, settings) -> {
      Map<String, String> text = text(settings);
      try {
        b.destination(Destination.fromProperties(name, text));
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(named(name, text, e.getMessage()));
      }
    });
  }

  /**
   * {@code fromProperties}'s complaint ({@code destination 'receipts': concurrency: ...}) as one naming
   * the property to fix ({@code hookledger.destinations.receipts.concurrency: ...}), or the destination's
   * prefix when it concerns several keys (the backoff's delays together).
   */
  private static String named(String name, Map<String, String> text, String message) {
    String property = "hookledger.destinations." + name;
    String prefix = "destination '" + name + "': ";
    String rest = message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    for (String key : text.keySet()) {
      if (rest.startsWith(key + ": ")) {
        return property + "." + key + ": " + rest.substring(key.length() + 2);
      }
    }
    return property + ": " + rest;
  }

  /** The settings given, by the keys of {@code fromProperties}; durations in ISO-8601, which it reads. */
  static Map<String, String> text(HookledgerProperties.Destination d) {
    Map<String, String> text = new LinkedHashMap<>();
    put(text, "url", d.getUrl());
    put(text, "timeout", d.getTimeout());
    put(text, "connect-timeout", d.getConnectTimeout());
    put(text, "max-attempts", d.getMaxAttempts());
    put(text, "first-delay", d.getFirstDelay());
    put(text, "max-delay", d.getMaxDelay());
    put(text, "concurrency", d.getConcurrency());
    put(text, "rate-per-second", d.getRatePerSecond());
    put(text, "burst", d.getBurst());
    put(text, "idempotency-header", d.getIdempotencyHeader());
    put(text, "breaker-failures", d.getBreakerFailures());
    put(text, "breaker-probe-after", d.getBreakerProbeAfter());
    return text;
  }

  private static void put(Map<String, String> text, String key, Object value) {
    if (value != null) {
      text.put(key, value.toString());
    }
  }
}
