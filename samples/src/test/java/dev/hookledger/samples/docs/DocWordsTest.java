package dev.hookledger.samples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No user-facing Markdown (every tracked {@code *.md} but the changelog) speaks of how the project was
 * built: issue numbers, work sessions, people, the build machine. The rules are proven to catch each
 * kind on a fixture, and to leave a user's words alone.
 */
class DocWordsTest {
  @Test
  void noTrackedMarkdownButTheChangelogUsesTheProjectsWorkWords() {
    List<Path> files = MarkdownFiles.tracked(MarkdownFiles.ROOT);
    assertTrue(files.contains(Path.of("README.md")) && files.contains(Path.of("docs", "README.md")),
        "the check must see the READMEs and the manual: " + files);
    List<String> findings = new ArrayList<>();
    for (Path file : files) {
      if (!file.equals(Path.of("CHANGELOG.md"))) {
        findings.addAll(DocWords.findings(file.toString().replace('\\', '/'), MarkdownFiles.lines(MarkdownFiles.ROOT, file)));
      }
    }
    assertEquals(List.of(), findings);
  }

  @Test
  void eachKindOfWorkWordIsFoundWithItsFileAndLine() {
    List<String> lines = List.of(
        "Issue 23's workload, measured in the sixth session's review:",
        "on the project's 2-core build machine while three other engineers built (see #12 on GitHub),",
        "as the lead asked, on this machine, in one sitting, branch s4-years.");

    assertEquals(List.of(
        "page.md:1: \"Issue 23\" (an issue number)",
        "page.md:1: \"sixth session's\" (a work session)",
        "page.md:2: \"other engineers\" (a person of the project)",
        "page.md:2: \"build machine\" (a build machine (say which machine, in a record))",
        "page.md:3: \"the lead\" (a person of the project)",
        "page.md:3: \"this machine\" (a build machine (say which machine, in a record))",
        "page.md:3: \"sitting\" (a diary (a measurement is a record: command, machine, date, commit))",
        "page.md:3: \"s4-years\" (a work branch)"), DocWords.findings("page.md", lines));
  }

  @Test
  void aUsersWordsPass() {
    List<String> lines = List.of(
        "`hookledger list --status dead --type 'issues.*'` lists GitHub's issues.opened events;",
        "the session timeouts (`SET LOCAL`), each session's `statement_timeout`, a ticket for octo-org/demo#12;",
        "the machine below: 2 vCPUs, 23 GiB; the lead time of a backfill; a handler added today.");

    assertEquals(List.of(), DocWords.findings("page.md", lines));
  }
}
