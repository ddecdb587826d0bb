package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.admin.ReconcileReport;
import dev.hookledger.runtime.internal.admin.ReconcileJson;
import dev.hookledger.spi.ReplaySource;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "reconcile", description = {
    "Compare the provider's own list of events for a window with the ledger; write nothing.",
    "Reports events the provider has that the ledger lacks, events the ledger has that the provider does not list,",
    "and events both have whose status differs (e.g. the provider shows a failed delivery the ledger accepted).",
    "Stripe: the events API (30 days). GitHub: the hook's deliveries API (3 days). Shopify: no API lists webhook",
    "deliveries, so it cannot be reconciled. Settings as for replay: --set KEY=VALUE or HOOKLEDGER_<PROVIDER>_<SETTING>."})
final class ReconcileCommand extends AdminCommand {
  @Parameters(index = "0", paramLabel = "PROVIDER", description = "the provider id, as its adapter names it")
  private String provider;

  @Option(names = "--since", required = true, paramLabel = "WHEN",
      description = "an ISO instant (2025-03-01T08:00:00Z), a date (UTC midnight) or a duration back from now (2h, 3d)")
  private String since;

  @Option(names = "--until", paramLabel = "WHEN", description = "the end of the window (default: now)")
  private String until;

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "a setting of the provider's replay source (e.g. api-key=...)")
  private Map<String, String> settings = new LinkedHashMap<>();

  @Override
  public void run() {
    Clock clock = Clock.systemUTC();
    Instant from = ReplayCommand.parseSince(since, clock);
    Instant to = until == null ? clock.instant() : ReplayCommand.parseSince(until, clock);
    ReplaySource source;
    try {
      source = new ReplaySources(System.getenv()).create(provider, settings);
    } catch (UnsupportedOperationException e) {
      throw new UnsupportedOperationException(provider + " cannot be reconciled: " + e.getMessage(), e);
    }
    ReconcileReport r = cli.admin().reconcile(source, from, to);
    cli.print(line(), ReconcileJson.report(r), ReconcileJson.text(r).stripTrailing());
  }
}
