package dev.hookledger.runtime.internal;

/** Names as Java writes them, from the names of settings, properties and columns. */
public final class CamelCase {
  private CamelCase() {}

  /**
   * {@code text} with each of {@code separators} dropped and the letter after it upper-cased:
   * {@code retry.max-attempts} with {@code "-."} is {@code retryMaxAttempts}, {@code event_id} with
   * {@code "_"} is {@code eventId}.
   */
  public static String of(String text, String separators) {
    StringBuilder out = new StringBuilder(text.length());
    boolean upper = false;
    for (char c : text.toCharArray()) {
      if (separators.indexOf(c) >= 0) {
        upper = true;
      } else {
        out.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return out.toString();
  }
}
