package dev.hookledger.runtime.internal.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Drops headers whose names suggest a credential or signature. Adapters never keep such headers;
 * this is the second line, so that a mistake in an adapter cannot show a signature on an admin
 * page, in the command line's output or in a replayed row.
 */
public final class HeaderRedaction {
  private static final List<String> SENSITIVE = List.of("signature", "hmac", "authorization", "token", "secret");

  private HeaderRedaction() {}

  /** Whether a header of this name is never shown or stored by the admin side. */
  public static boolean isSensitive(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return SENSITIVE.stream().anyMatch(n::contains);
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
