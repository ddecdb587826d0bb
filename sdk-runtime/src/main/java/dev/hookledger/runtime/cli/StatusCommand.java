package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.runtime.admin.AdminJson;
import dev.hookledger.runtime.admin.AdminText;
import dev.hookledger.runtime.admin.CauseCount;
import dev.hookledger.runtime.admin.DestinationStatus;
import dev.hookledger.runtime.admin.EffectJson;
import dev.hookledger.runtime.admin.EventPage;
import dev.hookledger.runtime.admin.EventQuery;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.InboxStatus;
import dev.hookledger.runtime.admin.RefusedCount;
import dev.hookledger.runtime.admin.StatusCount;
import dev.hookledger.runtime.admin.StatusFilter;
import dev.hookledger.runtime.admin.Throughput;
import dev.hookledger.runtime.internal.admin.DurationText;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "status", description = {"Show events per provider and status, and what needs a person.",
    "The oldest waiting event's age; failing events (waiting after a failed attempt: attempt k of N, next attempt,"
        + " root cause), the first " + StatusCommand.FAILING_SHOWN + " listed; stuck events (due and taken by no worker);"
        + " dead events; duplicate deliveries acknowledged without processing; failing and dead events grouped by"
        + " root cause; deliveries refused (bad signature, stale timestamp, unknown provider, ...) by all nodes in"
        + " the last 24 h, as the nodes write their counts to the ledger every 2 s; the outbox's effects per"
        + " destination: pending, sending, dead, the oldest waiting, breaker and pause.",
    "--activity prints instead the events received and settled per minute over the last hour, as the admin page's"
        + " chart draws them."})
final class StatusCommand extends AdminCommand {
  static final int FAILING_SHOWN = 10;
  static final int CAUSES_SHOWN = 10;

  @Option(names = "--activity", description = "events received and settled per minute, last hour (UTC)")
  private boolean activity;

  @Override
  public void run() {
    InboxAdmin admin = cli.admin();
    if (activity) {
      activity(admin.throughput());
      return;
    }
    InboxStatus status = admin.status();
    EventPage failing = status.failing() == 0 ? null
        : admin.list(EventQuery.builder().status(StatusFilter.FAILING).limit(FAILING_SHOWN).build());
    List<CauseCount> causes = status.failing() + status.dead() == 0 ? List.of() : admin.causes();
    List<RefusedCount> refused = admin.refusedCounts();
    List<DestinationStatus> destinations = admin.outbox().destinations();
    if (cli.json()) {
      ObjectNode o = AdminJson.status(status);
      o.set("failingEvents", failing == null ? o.arrayNode() : AdminJson.summaries(failing.events()));
      o.set("causes", AdminJson.causes(causes));
      o.set("refused", AdminJson.refusedCounts(refused));
      o.set("destinations", EffectJson.destinations(destinations));
      cli.printJson(line(), o);
      return;
    }
    PrintWriter out = line().getOut();
    TextTable table = new TextTable("PROVIDER", "STATUS", "EVENTS>", "DUPLICATES>");
    for (StatusCount c : status.counts()) {
      table.row(c.provider(), StatusColumn.sql(c.status()), c.events(), c.duplicates());
    }
    if (table.isEmpty()) {
      out.println("the ledger is empty");
    } else {
      out.print(table.render());
    }
    if (status.waiting() > InboxStatus.COUNTED) {
      out.println("(pending and processing: of the " + (InboxStatus.COUNTED + 1) + " events due first; more wait)");
    }
    out.println();
    out.println("waiting:    " + AdminText.counted(status.waiting())
        + status.oldestWaitingAge().map(a -> " (oldest " + DurationText.age(a) + ")").orElse(""));
    out.println("failing:    " + AdminText.counted(status.failing()) + (status.failing() > 0 ? " (" + hint("failing") + ")" : ""));
    out.println("stuck:      " + AdminText.counted(status.stuck()) + (status.stuck() > 0
        ? " due for over " + DurationText.format(status.stuckAfter()) + " and taken by no worker: are the workers running? ("
            + hint("stuck") + ")" : ""));
    out.println("dead:       " + status.dead() + (status.dead() > 0 ? " (" + hint("dead") + ")" : ""));
    out.println("duplicates: " + status.duplicates() + " deliveries acknowledged without processing");
    if (!causes.isEmpty()) {
      out.println();
      out.println("causes of failing and dead events, most first:");
      causes.stream().limit(CAUSES_SHOWN).forEach(c -> out.println("  " + c.events() + (c.events() == 1 ? " event" : " events")
          + " (" + c.failing() + " failing, " + c.dead() + " dead): " + c.cause()));
    }
    if (!refused.isEmpty()) {
      out.println();
      out.println("refused deliveries (all nodes, last 24 h):");
      TextTable t = new TextTable("PROVIDER", "REASON", "HTTP>", "REFUSED>", "LAST (UTC)");
      refused.forEach(c -> t.row(c.provider(), c.reason().name().toLowerCase(Locale.ROOT), c.reason().httpStatus(),
          c.count(), AdminText.second(c.lastAt())));
      out.print(t.render());
    }
    if (!destinations.isEmpty()) {
      out.println();
      out.println("effects per destination (sent effects are not counted):");
      out.print(EffectRowsText.destinations(destinations));
    }
    if (failing != null) {
      out.println();
      out.println("failing events, newest first" + (status.failing() > failing.events().size()
          ? " (" + failing.events().size() + " of " + AdminText.counted(status.failing()) + ")" : "") + ":");
      out.print(EventRowsText.render(failing.events(), status.asOf()));
    }
  }

  /**
   * The last hour a minute a line, oldest first, from {@link InboxAdmin#throughput()}: the page's chart's
   * source, two index range reads whose cost follows the last hour's traffic, not the history kept.
   */
  private void activity(Throughput t) {
    if (cli.json()) {
      cli.printJson(line(), AdminJson.throughput(t));
      return;
    }
    PrintWriter out = line().getOut();
    long received = t.minutes().stream().mapToLong(Throughput.Minute::received).sum();
    long settled = t.minutes().stream().mapToLong(Throughput.Minute::settled).sum();
    out.println("last hour: " + received + " received, " + settled + " settled; peak " + t.peak() + " a minute");
    TextTable table = new TextTable("MINUTE (UTC)", "RECEIVED>", "SETTLED>");
    for (Throughput.Minute m : t.minutes()) {
      table.row(AdminText.second(m.start()).substring(11, 16), m.received(), m.settled());
    }
    out.print(table.render());
  }

  private String hint(String filter) {
    List<String> command = new ArrayList<>(List.of("hookledger"));
    command.addAll(cli.ledgerOptions());
    command.addAll(List.of("list", "--status", filter));
    return String.join(" ", command);
  }
}
