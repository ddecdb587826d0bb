package dev.hookledger.runtime.internal.process;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The {@code last_error} of a failed attempt: the failure's message, then its cause's stack trace, bounded. */
final class FailureText {
  static final int MAX_CHARS = 8_000;

  private FailureText() {}

  static String of(Throwable failure) {
    StringWriter out = new StringWriter();
    out.append(String.valueOf(failure.getMessage())).append('\n');
    Throwable cause = failure.getCause() == null ? failure : failure.getCause();
    cause.printStackTrace(new PrintWriter(out));
    String text = out.toString();
    return text.length() <= MAX_CHARS ? text : text.substring(0, MAX_CHARS - 1) + "…";
  }
}
