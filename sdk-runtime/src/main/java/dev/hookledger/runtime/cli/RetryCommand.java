package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookledger.runtime.admin.EffectSelection;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.OperationRefusedException;
import dev.hookledger.runtime.admin.OutboxAdmin;
import dev.hookledger.runtime.admin.RetrySelection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

@Command(name = "retry", description = {
    "Set a dead event back to pending, or make a failing event (pending, backing off) due now.",
    "A dead event is available at once with attempts reset to 0; a failing one keeps its attempts."
        + " The last error is kept until the next attempt.",
    "--dead retries every dead event, not only those a page shows: it asks for their count first (--confirm N).",
    "--failing makes every failing event (pending, backing off) due now, attempts kept; with --dead or --failing,"
        + " --provider, --type and --cause narrow the events taken (at most 10000 at once).",
    "--effect KEY retries one effect of the outbox (dead: pending again with a full budget; failing: due now);"
        + " --effects with --dead or --failing takes the outbox's effects instead of events, narrowed by"
        + " --destination and --cause, with --confirm N as for events."})
final class RetryCommand extends AdminCommand {
  @Parameters(index = "0", arity = "0..1", paramLabel = "PROVIDER")
  private String provider;

  @Parameters(index = "1", arity = "0..1", paramLabel = "EVENT_ID")
  private String eventId;

  @Option(names = "--scope", defaultValue = "", description = "the event's scope, where it has one")
  private String scope;

  @Option(names = "--dead", description = "retry every dead event (with --confirm N)")
  private boolean allDead;

  @Option(names = "--failing", description = "make every failing event (pending, backing off) due now (with --confirm N)")
  private boolean allFailing;

  @Option(names = "--provider", paramLabel = "PROVIDER", description = "with --dead or --failing: only this provider's events")
  private String onlyProvider;

  @Option(names = "--type", paramLabel = "TYPE", description = "with --dead or --failing: only this type, or pattern (invoice.*)")
  private String onlyType;

  @Option(names = "--cause", paramLabel = "CAUSE", description = "with --dead or --failing: only events whose root cause"
      + " is exactly this line, as status and list show it")
  private String onlyCause;

  @Option(names = "--confirm", paramLabel = "N", description = "with --dead or --failing: the number of events you expect"
      + " to retry; nothing is retried if the ledger holds another number")
  private Long confirm;

  @Option(names = "--force", description = "also retry a settled (done, ignored, stale) event: its handlers run again")
  private boolean force;

  @Option(names = "--effect", paramLabel = "KEY", description = "retry one effect of the outbox, by its key (with --scope"
      + " where its event has one)")
  private String effectKey;

  @Option(names = "--effects", description = "with --dead or --failing: the outbox's effects, not events")
  private boolean effects;

  @Option(names = "--destination", paramLabel = "DESTINATION", description = "with --effects: only effects to this destination")
  private String onlyDestination;

  @Override
  public void run() {
    if (effectKey != null || effects) {
      retryEffects();
      return;
    }
    if (onlyDestination != null) {
      throw new ParameterException(line(), "--destination goes with --effects");
    }
    boolean bulk = allDead || allFailing;
    boolean named = provider != null && eventId != null;
    boolean anyNamed = provider != null || eventId != null;
    if (allDead && allFailing) {
      throw new ParameterException(line(), "pass --dead or --failing, not both");
    }
    if (bulk ? anyNamed : !named) {
      throw new ParameterException(line(), "name one event (PROVIDER EVENT_ID) or pass --dead or --failing");
    }
    if (!bulk && (confirm != null || onlyProvider != null || onlyType != null || onlyCause != null)) {
      throw new ParameterException(line(), "--confirm, --provider, --type and --cause go with --dead or --failing");
    }
    InboxAdmin admin = cli.admin();
    int retried;
    String text;
    if (allDead && onlyProvider == null && onlyType == null && onlyCause == null) {
      long dead = admin.backlog().dead();
      if (confirm == null && dead > 0) {
        throw new OperationRefusedException("retry --dead would set " + dead + " dead events back to pending;"
            + " nothing was retried: pass --confirm " + dead + " to retry them");
      }
      retried = admin.retryDead(confirm == null ? 0 : confirm);
      text = "retried " + retried + " dead events: pending, due now";
    } else if (bulk) {
      RetrySelection selection = selection();
      long n = admin.retryCount(selection);
      if (confirm == null && n > 0) {
        throw new OperationRefusedException("retry would take " + n + " " + selection + "; nothing was retried:"
            + " pass --confirm " + n + " to retry them");
      }
      retried = admin.retry(selection, confirm == null ? 0 : confirm);
      text = "retried " + retried + " " + selection + ": " + (allDead ? "pending, due now" : "due now");
    } else {
      admin.retry(provider, scope, eventId, force);
      retried = 1;
      text = "retried " + provider + " event " + eventId + (scope.isEmpty() ? "" : " (scope " + scope + ")")
          + ": pending, due now";
    }
    cli.print(line(), JsonNodeFactory.instance.objectNode().put("retried", retried), text);
  }

  private void retryEffects() {
    OutboxAdmin outbox = cli.admin().outbox();
    if (effectKey != null) {
      if (effects || allDead || allFailing || provider != null || confirm != null || onlyCause != null
          || onlyDestination != null || onlyProvider != null || onlyType != null || force) {
        throw new ParameterException(line(), "--effect KEY retries one effect: it takes --scope only");
      }
      outbox.retry(scope, effectKey);
      cli.print(line(), JsonNodeFactory.instance.objectNode().put("retried", 1),
          "retried effect " + effectKey + (scope.isEmpty() ? "" : " (scope " + scope + ")") + ": pending, due now");
      return;
    }
    if (allDead == allFailing || provider != null || onlyProvider != null || onlyType != null || force) {
      throw new ParameterException(line(), "--effects takes --dead or --failing, narrowed by --destination and --cause");
    }
    EffectSelection selection = (allDead ? EffectSelection.dead() : EffectSelection.failing())
        .destination(onlyDestination).cause(onlyCause);
    long n = outbox.retryCount(selection);
    if (confirm == null && n > 0) {
      throw new OperationRefusedException("retry would take " + n + " " + selection + "; nothing was retried:"
          + " pass --confirm " + n + " to retry them");
    }
    int retried = outbox.retry(selection, confirm == null ? 0 : confirm);
    cli.print(line(), JsonNodeFactory.instance.objectNode().put("retried", retried),
        "retried " + retried + " " + selection + ": " + (allDead ? "pending, due now" : "due now"));
  }

  private RetrySelection selection() {
    try {
      return (allDead ? RetrySelection.dead() : RetrySelection.failing())
          .provider(onlyProvider).type(onlyType).cause(onlyCause);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(line(), e.getMessage());
    }
  }
}
