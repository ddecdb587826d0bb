package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.admin.AdminJson;
import dev.hookledger.runtime.admin.InboxStatus;
import dev.hookledger.runtime.admin.StatusCount;
import dev.hookledger.runtime.internal.admin.DurationText;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

@Command(name = "status", description = {"Show events per provider and status.",
    "Also the oldest waiting event's age, dead events, and duplicate deliveries acknowledged without processing."})
final class StatusCommand extends AdminCommand {
  @Override
  public void run() {
    InboxStatus status = cli.admin().status();
    if (cli.json()) {
      cli.printJson(line(), AdminJson.status(status));
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
    out.println();
    out.println("waiting:    " + status.waiting()
        + status.oldestWaitingAge().map(a -> " (oldest " + DurationText.age(a) + ")").orElse(""));
    out.println("dead:       " + status.dead() + (status.dead() > 0 ? " (hookledger list --status dead)" : ""));
    out.println("duplicates: " + status.duplicates() + " deliveries acknowledged without processing");
  }
}
