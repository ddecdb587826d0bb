package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.internal.VisibleText;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * What the command line prints comes partly from the ledger (error messages, types, ids, headers,
 * bodies), that is from senders and handlers: an escape sequence in an error message would recolour
 * the operator's terminal, a carriage return would write over the exception's class. This writer
 * shows every character {@link VisibleText} names but line feed and tab as {@code \}{@code uXXXX}.
 * The command line's own controls (a progress bar's carriage return) go through {@link #control}.
 *
 * <p>{@code --json} output passes through it unchanged in meaning: JSON writers escape C0 controls
 * themselves, and the only others can stand only inside strings, where {@code \}{@code uXXXX} is the
 * same character to any JSON reader.
 */
final class TerminalSafeWriter extends FilterWriter {

  TerminalSafeWriter(Writer out) {
    super(out);
  }

  @Override
  public void write(int c) throws IOException {
    if (unsafe((char) c)) {
      out.write(escape((char) c));
    } else {
      out.write(c);
    }
  }

  @Override
  public void write(char[] cbuf, int off, int len) throws IOException {
    int start = off;
    int end = off + len;
    for (int i = off; i < end; i++) {
      if (unsafe(cbuf[i])) {
        out.write(cbuf, start, i - start);
        out.write(escape(cbuf[i]));
        start = i + 1;
      }
    }
    out.write(cbuf, start, end - start);
  }

  @Override
  public void write(String str, int off, int len) throws IOException {
    write(str.toCharArray(), off, len);
  }

  /** Writes {@code c}, a control the command line itself means (never ledger text), as it is. */
  void control(char c) throws IOException {
    out.write(c);
  }

  static boolean unsafe(char c) {
    return VisibleText.unsafeInText(c);
  }

  private static String escape(char c) {
    return VisibleText.escape(c);
  }
}
