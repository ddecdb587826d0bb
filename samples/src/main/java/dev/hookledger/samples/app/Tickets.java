package dev.hookledger.samples.app;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GitHub issues: {@code issues.opened} opens a support ticket.
 *
 * <p>The ticket table has no unique key on the issue on purpose: a redelivered event (GitHub keeps
 * the {@code X-GitHub-Delivery} id when someone clicks "Redeliver") would open a second ticket if
 * it ran twice. The log line goes through {@link EventContext#afterCommit}, so it is written only
 * once the ticket is really there.
 */
public final class Tickets {
  private static final HandlerStatement OPEN = new HandlerStatement(
      "INSERT INTO sample.ticket (repository, issue_number, title) VALUES (?, ?, ?)");

  private static final Logger LOG = LoggerFactory.getLogger(Tickets.class);

  /** The part of GitHub's {@code issues} event this handler reads. */
  public record IssueOpened(Issue issue, GitHubRepository repository) {}

  /** A GitHub issue, as far as this sample needs it. */
  public record Issue(int number, String title) {}

  @OnEvent(value = "issues.opened", provider = "github")
  void opened(IssueOpened event, DSLContext tx, EventContext ctx) {
    String repository = event.repository().fullName();
    int number = event.issue().number();
    OPEN.execute(tx, repository, number, event.issue().title());
    ctx.afterCommit(() -> LOG.info("opened a ticket for {}#{}", repository, number));
  }
}
