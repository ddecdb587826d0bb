package dev.hookledger.runtime.internal.ledger;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Drops headers whose names suggest a credential or signature. Adapters never keep such headers;
 * this is the second line, so that a mistake in an adapter (or a replay source) cannot store a
 * signature in the ledger, or show one on an admin page or in the command line's output.
 */
public final class HeaderRedaction {
  private static final List<String> SENSITIVE = List.of("signature", "hmac", "authorization", "token", "secret");

  private HeaderRedaction() {}

  /** Whether a header of this name is never stored or shown. */
  public static boolean isSensitive(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (String part : SENSITIVE) { // a loop, not a stream: asked for every kept header of every delivery
      if (n.contains(part)) {
        return true;
      }
    }
    return false;
  }

  /** The headers without the sensitive ones, in their order. */
  public static Map<String, String> strip(Map<String, String> headers) {
    Map<String, String> kept = new LinkedHashMap<>();
    headers.forEach((name, value) -> {
      if (!isSensitive(name)) {
        kept.put(name, value);
      }
    });
    return kept;
  }
}
