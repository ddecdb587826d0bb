package dev.hookledger.runtime.cli;

import java.util.regex.Pattern;

/** Quotes a value for a POSIX shell where it needs it, so that a printed command can be pasted back. */
final class Shell {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=@%+-]+");

  private Shell() {}

  static String quote(String value) {
    return PLAIN.matcher(value).matches() ? value : "'" + value.replace("'", "'\\''") + "'";
  }
}
