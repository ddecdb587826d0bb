package dev.hookledger.runtime.internal.ledger;

/**
 * Removes {@code --} line comments from a SQL script, leaving string literals ({@code '--'}) and
 * quoted identifiers untouched. The ledger's DDL has no block comments, so none are handled.
 */
final class SqlComments {
  private SqlComments() {}

  static String strip(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    char quote = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0; // a doubled quote ('') closes and reopens: the same text results
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        if (end < 0) {
          break;
        }
        i = end;
        c = '\n';
      }
      out.append(c);
    }
    return out.toString();
  }
}
