package dev.hookledger.runtime.internal.dispatch;

import static java.util.Objects.requireNonNull;

/**
 * An event type or type pattern of {@code @OnEvent} and of {@code inline(...)}: an exact type
 * ({@code invoice.paid}), a prefix ending in {@code *} ({@code invoice.*}), or {@code *} for every
 * type. Immutable.
 */
public final class TypePattern {
  private final String text;
  private final String prefix;
  private final boolean wildcard;

  private TypePattern(String text, String prefix, boolean wildcard) {
    this.text = text;
    this.prefix = prefix;
    this.wildcard = wildcard;
  }

  /**
   * Parses one pattern.
   *
   * @throws IllegalArgumentException naming the pattern and the rule it breaks
   */
  public static TypePattern parse(String text) {
    requireNonNull(text, "type pattern");
    if (text.isBlank()) {
      throw new IllegalArgumentException("bad event type pattern '" + text + "' (a type must not be blank)");
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c) || Character.isISOControl(c)) {
        throw new IllegalArgumentException(
            "bad event type pattern '" + text + "' (a type contains no whitespace or control characters)");
      }
      if (c == '*' && i != text.length() - 1) {
        throw new IllegalArgumentException("bad event type pattern '" + text
            + "' ('*' may only end a pattern, as in \"invoice.*\", or stand alone as \"*\")");
      }
    }
    boolean wildcard = text.endsWith("*");
    return new TypePattern(text, wildcard ? text.substring(0, text.length() - 1) : text, wildcard);
  }

  /** Whether {@code type} is this type, or starts with this pattern's prefix. */
  public boolean matches(String type) {
    return wildcard ? type.startsWith(prefix) : type.equals(text);
  }

  /** Whether this pattern ends in {@code *}: it matches every type starting with {@link #prefix()}. */
  public boolean isWildcard() {
    return wildcard;
  }

  /** The text before the {@code *} of a wildcard; the exact type otherwise. */
  public String prefix() {
    return prefix;
  }

  @Override
  public String toString() {
    return text;
  }
}
