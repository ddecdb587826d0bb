package dev.hookledger.samples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of the tracked Markdown lands on a file and a heading that exist, so that a page
 * moved or a heading renamed is noticed by the build, not by a reader. And the check itself fails on a
 * missing file and a missing anchor.
 */
class DocLinksTest {
  @TempDir Path dir;

  @Test
  void everyRelativeLinkLandsOnAFileAndAHeading() {
    List<String> problems = new ArrayList<>();
    for (Path page : MarkdownFiles.tracked(MarkdownFiles.ROOT)) {
      problems.addAll(DocLinks.problems(MarkdownFiles.ROOT, page, Set.of()));
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void aMissingFileAndAMissingAnchorAreReported() throws IOException {
    write("docs/a.md", "# A page\n\n## `web.xml` init-params\n\n## Notes\n\n## Notes\n");
    write("docs/b.md", "[ok](a.md#webxml-init-params), [ok](a.md#notes-1), [ok](#b), [site](https://example.com/x#y)\n"
        + "```\n[in code](gone.md)\n```\n"
        + "[gone](gone.md), [no heading](a.md#init-params), [later](later.md)\n\n# B\n");

    assertEquals(List.of("docs/b.md:5: gone.md: no file docs/gone.md",
        "docs/b.md:5: a.md#init-params: docs/a.md has no heading with that anchor"),
        DocLinks.problems(dir, Path.of("docs/b.md"), Set.of(Path.of("docs/later.md"))));
  }

  private void write(String path, String text) throws IOException {
    Path file = dir.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
