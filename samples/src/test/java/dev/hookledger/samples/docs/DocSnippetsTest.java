package dev.hookledger.samples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manual's examples compile: every {@code java} block of a Markdown page marked
 * {@code <!-- snippet: PATH -->} is made of lines of that compiled source file, in order (the sources
 * under {@code samples/src/test/java/dev/hookledger/samples/docs} exist for it, and some are the
 * samples' own code). And the check itself fails on a snippet that says what its source does not.
 */
class DocSnippetsTest {
  @TempDir Path dir;

  @Test
  void everyMarkedSnippetIsMadeOfItsSourceFilesLines() {
    List<String> problems = new ArrayList<>();
    for (Path page : MarkdownFiles.tracked(MarkdownFiles.ROOT)) {
      problems.addAll(DocSnippets.problems(MarkdownFiles.ROOT, page));
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void theManualMarksItsExamples() {
    int marked = 0;
    for (Path page : MarkdownFiles.manual(MarkdownFiles.ROOT)) {
      marked += DocSnippets.snippets(MarkdownFiles.ROOT, page).size();
    }
    assertTrue(marked >= 18, "only " + marked + " snippets of docs/ are checked against a compiled source");
  }

  @Test
  void aSnippetWithALineItsSourceLacksIsReported() throws IOException {
    assertProblems("class Example {\n  void paid() {\n    book(1);\n  }\n}\n",
        "text\n<!-- snippet: src/Example.java -->\n```java\nvoid paid() {\n  book(2);\n}\n```\n",
        "docs/page.md:5: not in src/Example.java (in this order): book(2);");
  }

  @Test
  void linesOutOfTheirSourcesOrderAreReported() throws IOException {
    assertProblems("int a = 1;\nint b = 2;\n",
        "<!-- snippet: src/Example.java -->\n```java\nint b = 2;\nint a = 1;\n```\n",
        "docs/page.md:4: not in src/Example.java (in this order): int a = 1;");
  }

  @Test
  void aSnippetOfTheSourcesLinesReindentedPasses() throws IOException {
    assertProblems("class Example {\n    void paid() {\n        book(1);   // once\n    }\n}\n",
        "<!-- snippet: src/Example.java -->\n```java\nvoid paid() {\n\n  book(1);   // once\n}\n```\n");
  }

  @Test
  void aMissingSourceAndAMarkerWithoutABlockAreReported() throws IOException {
    write("docs/page.md", "<!-- snippet: src/Gone.java -->\n```java\nint a;\n```\n\n<!-- snippet: src/Gone.java -->\ntext\n");

    assertEquals(List.of("docs/page.md:1: src/Gone.java does not exist",
        "docs/page.md:6: the snippet marker is not followed by a ```java block"),
        DocSnippets.problems(dir, Path.of("docs/page.md")));
  }

  private void assertProblems(String source, String page, String... expected) throws IOException {
    write("src/Example.java", source);
    write("docs/page.md", page);
    assertEquals(List.of(expected), DocSnippets.problems(dir, Path.of("docs/page.md")));
  }

  private void write(String path, String text) throws IOException {
    Path file = dir.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
