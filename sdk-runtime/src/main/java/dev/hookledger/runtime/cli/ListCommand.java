package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.admin.AdminJson;
import dev.hookledger.runtime.admin.EventPage;
import dev.hookledger.runtime.admin.EventQuery;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "list", description = "List events, newest first, with their last error.")
final class ListCommand extends AdminCommand {
  @Option(names = "--status", description = "pending, processing, done, ignored, stale or dead")
  private String status;

  @Option(names = "--provider", description = "only this provider's events")
  private String provider;

  @Option(names = "--type", description = "only events of exactly this type")
  private String type;

  @Option(names = "--limit", defaultValue = "" + EventQuery.DEFAULT_LIMIT, description = "page size (default: ${DEFAULT-VALUE})")
  private int limit;

  @Option(names = "--after", paramLabel = "CURSOR", description = "continue after a page (the cursor it printed)")
  private String after;

  @Override
  public void run() {
    EventQuery query = EventQuery.builder().status(status == null ? null : StatusColumn.parse(status)).provider(provider).type(type).limit(limit)
        .after(after).build();
    EventPage page = cli.admin().list(query);
    if (cli.json()) {
      cli.printJson(line(), AdminJson.page(page));
      return;
    }
    PrintWriter out = line().getOut();
    if (page.events().isEmpty()) {
      out.println("no events");
      return;
    }
    TextTable table = new TextTable("RECEIVED", "PROVIDER", "SCOPE", "EVENT", "TYPE", "STATUS", "ATTEMPTS>", "LAST ERROR");
    for (EventSummary e : page.events()) {
      table.row(e.receivedAt(), e.provider(), e.scope().isEmpty() ? "-" : e.scope(), e.eventId(), e.type(),
          StatusColumn.sql(e.status()), e.attempts(), e.lastError().orElse(""));
    }
    out.print(table.render());
    page.nextCursor().ifPresent(c -> out.println("more: hookledger list --after " + c));
  }
}
