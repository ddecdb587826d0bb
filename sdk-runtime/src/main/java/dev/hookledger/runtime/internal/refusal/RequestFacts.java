package dev.hookledger.runtime.internal.refusal;

import dev.hookledger.HttpHeaders;
import dev.hookledger.runtime.RefusedDelivery;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What may be kept of a refused request: its peer address, path, and header names with the values
 * of headers that cannot carry a secret. Bounded: {@value #MAX_HEADERS} headers, names and values
 * cut at {@value #MAX_TEXT} characters, control characters replaced, so that a forger's request
 * costs the ring a few kilobytes at most. Never the body.
 *
 * @param remoteAddress the peer's address; empty if unknown
 * @param path the request path
 * @param headers names to values or {@link RefusedDelivery#HIDDEN}
 */
public record RequestFacts(String remoteAddress, String path, Map<String, String> headers) {
  static final int MAX_HEADERS = 30;
  static final int MAX_TEXT = 200;
  /**
   * A header whose name holds one of these may carry a signature, a token or a key (Stripe-Signature,
   * X-Hub-Signature-256, X-Shopify-Hmac-Sha256, webhook-signature, Authorization, X-Api-Key, ...).
   */
  private static final List<String> SECRET_NAME_PARTS =
      List.of("sig", "hmac", "secret", "token", "auth", "cookie", "key", "pass", "credential");

  /** The facts of a request with these {@code headers}. */
  public static RequestFacts of(String remoteAddress, String path, HttpHeaders headers) {
    Map<String, String> kept = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> h : headers.asMap().entrySet()) {
      if (kept.size() == MAX_HEADERS) {
        break;
      }
      String name = printable(h.getKey());
      kept.put(name, secret(name) ? RefusedDelivery.HIDDEN : printable(String.join(", ", h.getValue())));
    }
    return new RequestFacts(remoteAddress == null ? "" : printable(remoteAddress), printable(path), kept);
  }

  static boolean secret(String headerName) {
    String name = headerName.toLowerCase(Locale.ROOT);
    return SECRET_NAME_PARTS.stream().anyMatch(name::contains);
  }

  /** Cut at {@value #MAX_TEXT} characters, each control character a '?'. */
  static String printable(String text) {
    String cut = text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "…" : text;
    StringBuilder out = new StringBuilder(cut.length());
    cut.codePoints().forEach(c -> out.appendCodePoint(Character.isISOControl(c)
        || Character.getType(c) == Character.FORMAT ? '?' : c));
    return out.toString();
  }
}
