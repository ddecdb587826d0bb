package dev.hookledger.runtime.cli;

import java.util.ArrayList;
import java.util.List;

/** A table for people: columns padded to their widest cell, numbers right-aligned, two spaces apart. */
final class TextTable {
  private final String[] headers;
  private final boolean[] numeric;
  private final List<String[]> rows = new ArrayList<>();

  /** Headers; a header ending in {@code >} marks a right-aligned column (the mark is not shown). */
  TextTable(String... headers) {
    this.headers = new String[headers.length];
    this.numeric = new boolean[headers.length];
    for (int i = 0; i < headers.length; i++) {
      numeric[i] = headers[i].endsWith(">");
      this.headers[i] = numeric[i] ? headers[i].substring(0, headers[i].length() - 1) : headers[i];
    }
  }

  TextTable row(Object... cells) {
    if (cells.length != headers.length) {
      throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + headers.length);
    }
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      // the last column (an error's cause) may run on: a terminal wraps it, nothing after it moves
      row[i] = cells[i] == null ? "-" : oneLine(cells[i].toString(), i == cells.length - 1 ? LAST_MAX : MAX);
    }
    rows.add(row);
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  String render() {
    int[] widths = new int[headers.length];
    for (int i = 0; i < headers.length; i++) {
      widths[i] = headers[i].length();
      for (String[] r : rows) {
        widths[i] = Math.max(widths[i], r[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
    line(out, headers, widths);
    rows.forEach(r -> line(out, r, widths));
    return out.toString();
  }

  private void line(StringBuilder out, String[] cells, int[] widths) {
    StringBuilder l = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      String pad = " ".repeat(widths[i] - cells[i].length());
      l.append(numeric[i] ? pad + cells[i] : cells[i] + (i == cells.length - 1 ? "" : pad));
      if (i < cells.length - 1) {
        l.append("  ");
      }
    }
    out.append(l.toString().stripTrailing()).append('\n');
  }

  /** Tables show the first line of a cell (errors can be long stack traces), cut at 80 characters, 200 in the last column. */
  static String oneLine(String s, int max) {
    int nl = s.indexOf('\n');
    String first = nl < 0 ? s : s.substring(0, nl) + " ...";
    return first.length() <= max ? first : first.substring(0, max - 3) + "...";
  }

  private static final int MAX = 80;
  private static final int LAST_MAX = 200;
}
