package dev.hookledger.runtime.internal;

/**
 * The one rule for text that came from senders or handlers (error messages, event ids, types,
 * headers, bodies) when it is shown to a person: a character that a terminal or a browser would
 * obey rather than show is shown as {@code \}{@code uXXXX}. Those are the C0 and C1 controls, DEL,
 * the line and paragraph separators, and the bidirectional marks, embeddings, overrides and isolates
 * (U+202E would show a cause reversed; a carriage return would write over the exception's class).
 * The command line, the admin page, the admin JSON and the metrics' tags all ask this class.
 * Stateless and thread-safe.
 */
public final class VisibleText {
  private VisibleText() {}

  /** Whether {@code c} is obeyed rather than shown, line feed and tab included. */
  public static boolean unsafe(char c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f)
        || c == '\u2028' || c == '\u2029'
        || (c >= '\u202a' && c <= '\u202e')
        || (c >= '\u2066' && c <= '\u2069')
        || c == '\u200e' || c == '\u200f' || c == '\u061c';
  }

  /** Whether {@code c} is unsafe in text of several lines: as {@link #unsafe}, but line feed and tab are kept. */
  public static boolean unsafeInText(char c) {
    return c != '\n' && c != '\t' && unsafe(c);
  }

  /** {@code s} as one line: every unsafe character, line feeds and tabs too, as {@code \}{@code uXXXX}. */
  public static String line(String s) {
    return escape(s, false);
  }

  /** {@code s} with its lines and tabs kept and every other unsafe character as {@code \}{@code uXXXX}. */
  public static String text(String s) {
    return escape(s, true);
  }

  /** {@code c} as it is shown: {@code \}{@code u000d} for a carriage return. */
  public static String escape(char c) {
    return String.format("\\u%04x", (int) c);
  }

  private static String escape(String s, boolean keepLines) {
    int i = 0;
    while (i < s.length() && !(keepLines ? unsafeInText(s.charAt(i)) : unsafe(s.charAt(i)))) {
      i++;
    }
    if (i == s.length()) {
      return s; // the common case: nothing to escape, nothing copied
    }
    StringBuilder out = new StringBuilder(s.length() + 16).append(s, 0, i);
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (keepLines ? unsafeInText(c) : unsafe(c)) {
        out.append(escape(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
