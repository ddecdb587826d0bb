package dev.hookledger.runtime.internal.process;

import dev.hookledger.runtime.internal.VisibleText;

/**
 * The one line an operator reads first, by one rule wherever it is shown ({@code status},
 * {@code list}, {@code show}, the admin page and its JSON, the bulk retry's cause filter): the class
 * (without its package) of the deepest cause in a stored {@code last_error} and the first line of
 * that cause's message, with every character {@link VisibleText} names shown as
 * {@code \}{@code uXXXX}. The full text stays in the ledger, one click (or {@code show}) away.
 *
 * <p>A {@code last_error} is written by {@link FailureText}: the failure's own message, then each
 * cause as {@code Throwable.toString()} ({@code com.acme.Gone: order 7 not found}), the later ones
 * after {@code Caused by: }, each followed by its frames ({@code \tat ...}); a message's further lines
 * are {@linkplain FailureText#CONTINUATION continuations}, skipped here, so that no text of a
 * message (an invoice id with {@code \r\n}) can stand in for the class or the cause. Text that is not
 * such a trace (a lease that ran out) is shown by its first line.
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
    boolean throwableSeen = false;
    boolean framesFollow = false;
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      if (line.startsWith(FailureText.CONTINUATION)) {
        continue; // a message's further line: never the class, a cause or a frame
      }
      if (line.startsWith(CAUSED_BY)) {
        deepest = line.substring(CAUSED_BY.length());
      } else if (isFrame(line)) {
        framesFollow = true;
      } else if (!throwableSeen && !line.isBlank()) {
        deepest = line; // the line after the failure's message: the first throwable
      }
      throwableSeen = true;
    }
    // a trace without causes opens with its throwable; text that is no trace is its own first line
    String line = !framesFollow ? lines[0] : withoutPackage(deepest != null ? deepest : lines[0]);
    line = VisibleText.line(line.strip());
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
