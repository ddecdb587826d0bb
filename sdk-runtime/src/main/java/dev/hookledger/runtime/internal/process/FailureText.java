package dev.hookledger.runtime.internal.process;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code last_error} of a failed attempt: the failure's message, then its cause and the causes'
 * stack traces, bounded, with a NUL (which the ledger's text cannot hold) written as its Java escape.
 * Written into a string for the ledger row, never to a console.
 *
 * <p>A message is the sender's or the handler's text, and may hold line breaks (an invoice id with
 * {@code \r\n}): each further line of a message is written as a {@linkplain #CONTINUATION
 * continuation}, so that a message can never pass for the trace's next throwable, cause or frame,
 * and {@link RootCause} finds the class and the first line of the message whatever it holds.
 */
final class FailureText {
  static final int MAX_CHARS = 8_000;
  /** What opens each further line of a message in the stored text: a line no trace line begins with. */
  static final String CONTINUATION = "\t| ";
  private static final Pattern LINE_BREAK = Pattern.compile("\\R");
  private static final String NEXT_LINE = Matcher.quoteReplacement("\n" + CONTINUATION);

  private FailureText() {}

  static String of(Throwable failure) {
    StringBuilder out = new StringBuilder(1024);
    out.append(lines(failure.getMessage())).append('\n');
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    String label = "";
    StackTraceElement[] enclosing = new StackTraceElement[0];
    // a cycle of causes is possible (initCause on a wrapper); each is written once
    for (Throwable t = failure.getCause() == null ? failure : failure.getCause();
        t != null && seen.add(t) && out.length() < MAX_CHARS;
        t = t.getCause()) {
      out.append(label).append(lines(t.toString())).append('\n');
      StackTraceElement[] frames = t.getStackTrace();
      // as printStackTrace does: a cause's frames shared with the trace above are summarized
      int shared = 0;
      while (shared < frames.length && shared < enclosing.length
          && frames[frames.length - 1 - shared].equals(enclosing[enclosing.length - 1 - shared])) {
        shared++;
      }
      for (int i = 0; i < frames.length - shared && out.length() < MAX_CHARS; i++) {
        out.append("\tat ").append(frames[i]).append('\n');
      }
      if (shared > 0) {
        out.append("\t... ").append(shared).append(" more\n");
      }
      enclosing = frames;
      label = "Caused by: ";
    }
    // PostgreSQL's text cannot hold U+0000: a message quoting a payload's NUL made the whole failure
    // unrecordable (no backoff, the cause lost); it is kept as the escape a Java reader knows
    String text = out.indexOf("\u0000") < 0 ? out.toString() : out.toString().replace("\u0000", "\\u0000");
    return text.length() <= MAX_CHARS ? text : text.substring(0, MAX_CHARS - 1) + "…";
  }

  /** {@code text} with each line break (CR LF, CR, LF, VT, FF, NEL, U+2028, U+2029) opening a continuation. */
  private static String lines(String text) {
    return text == null ? "null" : LINE_BREAK.matcher(text).replaceAll(NEXT_LINE);
  }
}
