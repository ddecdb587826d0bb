package dev.hookledger.samples.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The check that the manual's examples compile: a {@code java} block in a page, preceded by the
 * marker {@code <!-- snippet: PATH -->}, must be made of lines of that source file (a file the build
 * compiles), in their order. Lines are compared without their indentation, blank lines skipped, so a
 * snippet may leave out what surrounds it (a class around a method, imports it does not show) but
 * never says what the code does not.
 */
final class DocSnippets {
  private static final Pattern MARKER = Pattern.compile("^\\s*<!-- snippet: (\\S+) -->\\s*$");

  /** One checked snippet: the page and line of its marker, and the source it names. */
  record Snippet(Path page, int line, String source) {}

  private DocSnippets() {}

  /** The marked snippets of {@code page} (relative to {@code root}). */
  static List<Snippet> snippets(Path root, Path page) {
    List<Snippet> out = new ArrayList<>();
    List<String> lines = MarkdownFiles.lines(root, page);
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = MARKER.matcher(lines.get(i));
      if (m.matches()) {
        out.add(new Snippet(page, i + 1, m.group(1)));
      }
    }
    return out;
  }

  /** What is wrong with the marked snippets of {@code page}, one line each; empty when nothing is. */
  static List<String> problems(Path root, Path page) {
    List<String> problems = new ArrayList<>();
    List<String> lines = MarkdownFiles.lines(root, page);
    for (Snippet s : snippets(root, page)) {
      String where = page + ":" + s.line();
      int open = s.line();   // the line after the marker, 0-based
      if (open >= lines.size() || !lines.get(open).strip().equals("```java")) {
        problems.add(where + ": the snippet marker is not followed by a ```java block");
        continue;
      }
      Path source = root.resolve(s.source());
      if (!Files.isRegularFile(source)) {
        problems.add(where + ": " + s.source() + " does not exist");
        continue;
      }
      List<String> code = new ArrayList<>();
      int close = open + 1;
      for (; close < lines.size() && !lines.get(close).strip().equals("```"); close++) {
        code.add(lines.get(close));
      }
      if (close == lines.size()) {
        problems.add(where + ": the ```java block is not closed");
        continue;
      }
      List<String> sourceLines = MarkdownFiles.lines(root, root.relativize(source));
      int at = 0;
      for (int i = 0; i < code.size(); i++) {
        String wanted = code.get(i).strip();
        if (wanted.isEmpty()) {
          continue;
        }
        while (at < sourceLines.size() && !sourceLines.get(at).strip().equals(wanted)) {
          at++;
        }
        if (at == sourceLines.size()) {
          problems.add(page + ":" + (open + 2 + i) + ": not in " + s.source() + " (in this order): " + wanted);
          break;
        }
        at++;
      }
    }
    return problems;
  }
}
