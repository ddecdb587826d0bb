package dev.hookledger.runtime.internal;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * The writer of the admin JSON (the admin servlet's and the command line's {@code --json}): every
 * character {@link VisibleText} names is written as a JSON {@code \}{@code uXXXX} escape, so that a
 * reader gets the value exactly (an event id is still that id) while a person looking at the raw
 * document sees the escape, never a bidirectional override or a terminal control. Thread-safe.
 */
public final class VisibleJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Compact, for HTTP responses. */
  public static final ObjectWriter COMPACT = MAPPER.writer().with(new Escapes());
  /** Indented, for people at a terminal. */
  public static final ObjectWriter PRETTY = MAPPER.writerWithDefaultPrettyPrinter().with(new Escapes());

  private VisibleJson() {}

  private static final class Escapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private final int[] ascii = standardAsciiEscapesForJSON();

    Escapes() {
      ascii[0x7f] = ESCAPE_STANDARD; // C0 controls are escaped by JSON's own rule already; DEL is not
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      return ch <= Character.MAX_VALUE && VisibleText.unsafe((char) ch)
          ? new SerializedString(VisibleText.escape((char) ch)) : null;
    }
  }
}
