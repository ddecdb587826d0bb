package dev.hookledger.runtime.internal.process;

/**
 * The one line an operator reads first: the class (without its package) and message of the deepest
 * cause in a stored {@code last_error}. The full text stays in the ledger, one click (or
 * {@code show}) away.
 *
 * <p>A {@code last_error} is written by the worker as the failure's own message, then each cause as
 * {@code Throwable.toString()} ({@code com.acme.Gone: order 7 not found}), the later ones after
 * {@code Caused by: }, each followed by its frames ({@code \tat ...}). Text that is not such a trace
 * (a lease that ran out) is shown by its first line.
 */
public final class RootCause {
  /** A cause line longer than this is cut, with an ellipsis: a row on a page or in a table is one line. */
  public static final int MAX_CHARS = 200;

  private static final String CAUSED_BY = "Caused by: ";

  private RootCause() {}

  /** The deepest cause in one line; empty text stays empty. */
  public static String of(String lastError) {
    String[] lines = lastError.split("\r?\n");
    String deepest = null;
    boolean framesFollow = false;
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      if (line.startsWith(CAUSED_BY)) {
        deepest = line.substring(CAUSED_BY.length());
      } else if (i == 1 && !line.isBlank() && !isFrame(line)) {
        deepest = line;
      } else if (isFrame(line)) {
        framesFollow = true;
      }
    }
    // a trace without causes opens with its throwable; text that is no trace is its own first line
    String line = !framesFollow ? lines[0] : withoutPackage(deepest != null ? deepest : lines[0]);
    line = line.strip();
    return line.length() <= MAX_CHARS ? line : line.substring(0, MAX_CHARS - 1) + "…";
  }

  private static boolean isFrame(String line) {
    return line.startsWith("\tat ") || line.startsWith("\t...") || line.startsWith("    at ");
  }

  /** {@code com.acme.Billing$Gone: x} reads as {@code Billing$Gone: x}; the message is untouched. */
  private static String withoutPackage(String throwable) {
    int colon = throwable.indexOf(": ");
    String type = colon < 0 ? throwable : throwable.substring(0, colon);
    if (type.contains(" ") || !type.contains(".")) {
      return throwable; // not a class name
    }
    String simple = type.substring(type.lastIndexOf('.') + 1);
    return colon < 0 ? simple : simple + throwable.substring(colon);
  }
}
