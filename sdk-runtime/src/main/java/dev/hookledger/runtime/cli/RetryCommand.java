package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookledger.runtime.admin.InboxAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

@Command(name = "retry", description = {
    "Set a dead event, or every dead event, back to pending.",
    "The event is available at once with attempts reset to 0; its last error is kept until the next attempt."})
final class RetryCommand extends AdminCommand {
  @Parameters(index = "0", arity = "0..1", paramLabel = "PROVIDER")
  private String provider;

  @Parameters(index = "1", arity = "0..1", paramLabel = "EVENT_ID")
  private String eventId;

  @Option(names = "--scope", defaultValue = "", description = "the event's scope, where it has one")
  private String scope;

  @Option(names = "--dead", description = "retry every dead event")
  private boolean allDead;

  @Option(names = "--force", description = "also retry a settled (done, ignored, stale) event: its handlers run again")
  private boolean force;

  @Override
  public void run() {
    boolean named = provider != null && eventId != null;
    boolean anyNamed = provider != null || eventId != null;
    if (allDead ? anyNamed : !named) {
      throw new ParameterException(line(), "name one event (PROVIDER EVENT_ID) or pass --dead");
    }
    InboxAdmin admin = cli.admin();
    int retried;
    String text;
    if (allDead) {
      retried = admin.retryDead();
      text = "retried " + retried + " dead events";
    } else {
      admin.retry(provider, scope, eventId, force);
      retried = 1;
      text = "retried " + provider + " event " + eventId + ": pending";
    }
    cli.print(line(), JsonNodeFactory.instance.objectNode().put("retried", retried), text);
  }
}
