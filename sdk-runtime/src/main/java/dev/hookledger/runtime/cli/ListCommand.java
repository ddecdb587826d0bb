package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookledger.runtime.admin.AdminJson;
import dev.hookledger.runtime.admin.EffectJson;
import dev.hookledger.runtime.admin.EffectQuery;
import dev.hookledger.runtime.admin.EffectSummary;
import dev.hookledger.runtime.admin.EventPage;
import dev.hookledger.runtime.admin.EventQuery;
import dev.hookledger.runtime.admin.StatusFilter;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

@Command(name = "list", description = {"List events, newest first: attempt k of N, next attempt and the root cause in one line.",
    "'show' prints an event's whole error.",
    "--effects lists the outbox's effects instead, newest first, with their keys (what retry --effect takes):"
        + " --destination, --status (pending, sending, done, dead) and --cause narrow them."})
final class ListCommand extends AdminCommand {
  @Option(names = "--status", description = "pending, processing, done, ignored, stale or dead; or waiting, failing"
      + " (waiting after a failed attempt) or stuck (due and taken by no worker); any case")
  private String status;

  @Option(names = "--provider", description = "only this provider's events")
  private String provider;

  @Option(names = "--type", description = "only events of this type, or type pattern as @OnEvent reads it: invoice.*, *")
  private String type;

  @Option(names = "--id", description = "only the events with this event id or delivery id, under any provider and scope")
  private String id;

  @Option(names = "--limit", defaultValue = "" + EventQuery.DEFAULT_LIMIT, description = "page size (default: ${DEFAULT-VALUE})")
  private int limit;

  @Option(names = "--after", paramLabel = "CURSOR", description = "continue after a page (the cursor it printed)")
  private String after;

  @Option(names = "--effects", description = "list effects of the outbox, not events")
  private boolean effects;

  @Option(names = "--destination", description = "with --effects: only effects to this destination")
  private String destination;

  @Option(names = "--cause", description = "with --effects: only effects whose root cause is exactly this line")
  private String cause;

  @Override
  public void run() {
    if (effects) {
      listEffects();
      return;
    }
    if (destination != null || cause != null) {
      throw new ParameterException(line(), "--destination and --cause go with --effects");
    }
    EventQuery query = EventQuery.builder().status(status == null ? null : StatusFilter.parse(status))
        .provider(provider).type(type).id(id).limit(limit).after(after).build();
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
    out.print(EventRowsText.render(page.events(), Clock.systemUTC().instant()));
    page.nextCursor().ifPresent(c -> out.println("more: " + String.join(" ", nextPage(query, c))));
  }

  private void listEffects() {
    if (provider != null || type != null || id != null || after != null) {
      throw new ParameterException(line(), "--provider, --type, --id and --after list events, not --effects");
    }
    EffectQuery query;
    try {
      query = EffectQuery.all().destination(destination).cause(cause).limit(limit)
          .status(status == null ? null : EffectQuery.parseStatus(status));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(line(), e.getMessage());
    }
    List<EffectSummary> listed = cli.admin().outbox().list(query);
    if (cli.json()) {
      cli.printJson(line(), JsonNodeFactory.instance.objectNode().set("effects", EffectJson.summaries(listed)));
      return;
    }
    PrintWriter out = line().getOut();
    out.print(listed.isEmpty() ? "no effects\n" : EffectRowsText.effects(listed));
  }

  /** The command of the next page: every filter of this one, and the cursor. */
  private List<String> nextPage(EventQuery query, String cursor) {
    List<String> command = new ArrayList<>(List.of("hookledger"));
    command.addAll(cli.ledgerOptions());
    command.add("list");
    query.status().ifPresent(s -> command.addAll(List.of("--status", s.text())));
    query.provider().ifPresent(p -> command.addAll(List.of("--provider", Shell.quote(p))));
    query.type().ifPresent(t -> command.addAll(List.of("--type", Shell.quote(t))));
    query.id().ifPresent(i -> command.addAll(List.of("--id", Shell.quote(i))));
    if (query.limit() != EventQuery.DEFAULT_LIMIT) {
      command.addAll(List.of("--limit", Integer.toString(query.limit())));
    }
    command.addAll(List.of("--after", cursor));
    return command;
  }
}
