package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.runtime.admin.AdminJson;
import dev.hookledger.runtime.admin.EffectDetail;
import dev.hookledger.runtime.admin.EffectJson;
import dev.hookledger.runtime.admin.EventDetail;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.internal.admin.TimeText;
import dev.hookledger.runtime.internal.ledger.SourceColumn;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "show", description = "Show one event in full: headers, body, attempts, last error, secret id, and the"
    + " effects its handlers enqueued, each with every attempt and what the destination answered.")
final class ShowCommand extends AdminCommand {
  @Parameters(index = "0", paramLabel = "PROVIDER")
  private String provider;

  @Parameters(index = "1", paramLabel = "EVENT_ID")
  private String eventId;

  @Option(names = "--scope", defaultValue = "", description = "the scope that makes the event id unique (a hook, shop or account), where the event has one")
  private String scope;

  @Override
  public void run() {
    EventDetail d = cli.admin().showExisting(provider, scope, eventId);
    List<EffectDetail> effects = cli.admin().outbox().effectsOf(provider, scope, eventId);
    if (cli.json()) {
      ObjectNode o = AdminJson.detail(d);
      o.set("effects", EffectJson.details(effects));
      cli.printJson(line(), o);
      return;
    }
    PrintWriter out = line().getOut();
    EventSummary s = d.summary();
    TextTable fields = new TextTable("FIELD", "VALUE");
    fields.row("provider", s.provider()).row("scope", s.scope().isEmpty() ? "-" : s.scope())
        .row("event", s.eventId()).row("type", s.type()).row("status", StatusColumn.sql(s.status()))
        .row("source", SourceColumn.sql(s.source())).row("attempts", s.attempts() + " of " + s.maxAttempts() + (s.failing() ? " (failing)" : "")
            + (s.stuck() ? " (stuck)" : "")).row("duplicates", s.duplicates())
        .row("received", TimeText.second(s.receivedAt())).row("available", TimeText.second(s.availableAt()))
        .row("settled", text(s.settledAt().map(TimeText::second))).row("root cause", text(s.rootCause())).row("api version", text(d.apiVersion()))
        .row("entity", text(d.entityKey()) + (d.entityVersion().isPresent() ? " @" + d.entityVersion().getAsLong() : ""))
        .row("occurred", text(d.occurredAt().map(TimeText::second))).row("delivery", text(d.deliveryId()))
        .row("secret id", text(d.secretId())).row("signed at", text(d.signedAt().map(TimeText::second)))
        .row("lease", text(d.leaseOwner()) + d.leaseUntil().map(u -> " until " + TimeText.second(u)).orElse(""));
    out.print(fields.render());
    out.println();
    out.println("last error:");
    out.println(s.lastError().orElse("-"));
    out.println();
    if (!d.attempts().isEmpty()) {
      TextTable attempts = new TextTable("ATTEMPT", "STARTED", "NODE", "DURATION", "OUTCOME", "CAUSE");
      d.attempts().forEach(a -> attempts.row(a.attempt() + " of " + s.maxAttempts(), TimeText.second(a.startedAt()),
          a.node(), a.duration().toMillis() + " ms", a.outcome(), a.cause().isEmpty() ? "-" : a.cause()));
      out.println("attempts (oldest first; each failure's whole error: --json):");
      out.print(attempts.render());
      out.println();
    }
    if (!effects.isEmpty()) {
      EffectRowsText.details(effects, out);
      out.println();
    }
    out.println("headers:");
    d.headers().forEach((k, v) -> out.println("  " + k + ": " + v));
    out.println();
    out.println("body (" + d.bodyLength() + " bytes):");
    out.println(d.body());
    d.payload().ifPresent(p -> {
      out.println();
      out.println("payload:");
      out.println(p);
    });
  }

  private static String text(Optional<?> value) {
    return value.map(Object::toString).orElse("-");
  }
}
