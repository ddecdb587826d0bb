package dev.hookledger.runtime.cli;

import java.util.ArrayList;
import java.util.Arrays;
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
    rows.add(Arrays.stream(cells).map(c -> c == null ? "-" : oneLine(c.toString())).toArray(String[]::new));
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

  /** Tables show the first line of a cell (errors can be long stack traces), cut at 80 characters. */
  static String oneLine(String s) {
    int nl = s.indexOf('\n');
    String first = nl < 0 ? s : s.substring(0, nl) + " ...";
    return first.length() <= 80 ? first : first.substring(0, 77) + "...";
  }
}
