package dev.hookledger.runtime.cli;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * What the command line prints comes partly from the ledger (error messages, types, ids, headers,
 * bodies), that is from senders and handlers: an escape sequence in an error message would recolour
 * the operator's terminal, a carriage return would write over the exception's class. This writer
 * shows every control character but line feed and tab as {@code \}{@code uXXXX}: C0 and C1 controls,
 * DEL, the line and paragraph separators and the bidirectional overrides and isolates (which reorder
 * what the terminal shows).
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

  static boolean unsafe(char c) {
    if (c == '\n' || c == '\t') {
      return false;
    }
    return c < 0x20 || (c >= 0x7f && c <= 0x9f)
        || c == '\u2028' || c == '\u2029'
        || (c >= '\u202a' && c <= '\u202e')
        || (c >= '\u2066' && c <= '\u2069')
        || c == '\u200e' || c == '\u200f' || c == '\u061c';
  }

  private static String escape(char c) {
    return String.format("\\u%04x", (int) c);
  }
}
