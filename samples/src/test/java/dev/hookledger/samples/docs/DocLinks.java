package dev.hookledger.samples.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The check that the manual's links land: a relative link names a file that exists and, for a
 * Markdown file, a heading it has (by GitHub's anchors: lower case, punctuation dropped, spaces as
 * hyphens, a repeated heading numbered). Links inside code blocks and to other sites are not checked.
 */
final class DocLinks {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

  private DocLinks() {}

  /**
   * What is wrong with the links of {@code page} (relative to {@code root}), one line each; a link to
   * a file in {@code absentPages} is not reported while that file does not exist.
   */
  static List<String> problems(Path root, Path page, Set<Path> absentPages) {
    List<String> problems = new ArrayList<>();
    List<String> lines = MarkdownFiles.lines(root, page);
    boolean code = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.strip().startsWith("```")) {
        code = !code;
        continue;
      }
      if (code) {
        continue;
      }
      Matcher m = LINK.matcher(line);
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue;   // https:, mailto:
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.resolveSibling(file).normalize();
        String where = page + ":" + (i + 1) + ": " + target;
        if (!Files.exists(root.resolve(resolved))) {
          if (!absentPages.contains(resolved)) {
            problems.add(where + ": no file " + resolved);
          }
        } else if (hash >= 0 && resolved.toString().endsWith(".md")
            && !anchors(root, resolved).contains(target.substring(hash + 1))) {
          problems.add(where + ": " + resolved + " has no heading with that anchor");
        }
      }
    }
    return problems;
  }

  /** The anchors GitHub gives the headings of {@code page}. */
  static Set<String> anchors(Path root, Path page) {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean code = false;
    for (String line : MarkdownFiles.lines(root, page)) {
      if (line.strip().startsWith("```")) {
        code = !code;
      }
      Matcher m = HEADING.matcher(line);
      if (!code && m.matches()) {
        String slug = m.group(1).strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\- _]", "")
            .replace(' ', '-');
        int n = seen.merge(slug, 1, Integer::sum);
        anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
      }
    }
    return anchors;
  }
}
