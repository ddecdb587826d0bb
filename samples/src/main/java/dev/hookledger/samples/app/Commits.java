package dev.hookledger.samples.app;

import dev.hookledger.OnEvent;
import java.util.List;
import org.jooq.DSLContext;

/**
 * GitHub pushes: {@code push} adds the number of pushed commits to the repository's counter.
 *
 * <p>Deliberately not idempotent: a push counted twice shows as too many commits. GitHub never
 * retries on its own, but a manual or scripted redelivery sends the same delivery id again, and the
 * ledger turns it away.
 */
public final class Commits {
  private static final HandlerStatement UPSERT = new HandlerStatement("""
      INSERT INTO sample.repository_commits (repository, commits) VALUES (?, ?)
      ON CONFLICT (repository) DO UPDATE SET commits = repository_commits.commits + EXCLUDED.commits
      """);

  /** The part of GitHub's {@code push} event this handler reads. */
  public record Push(String ref, List<Commit> commits, GitHubRepository repository) {}

  /** One pushed commit. */
  public record Commit(String id) {}

  @OnEvent(value = "push", provider = "github")
  void pushed(Push push, DSLContext tx) {
    int count = push.commits() == null ? 0 : push.commits().size();
    UPSERT.execute(tx, push.repository().fullName(), count);
  }
}
