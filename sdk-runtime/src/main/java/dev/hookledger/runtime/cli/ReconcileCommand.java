package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.admin.AdminJson;
import dev.hookledger.runtime.admin.ReconcileReport;
import dev.hookledger.spi.ReplaySource;
import java.time.Clock;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "reconcile", description = {
    "Compare the provider's own list of events for a window with the ledger; write nothing.",
    "Reports events the provider has that the ledger lacks, events the ledger has that the provider does not list,",
    "and events both have whose status differs (e.g. the provider shows a failed delivery the ledger accepted).",
    "Each provider's adapter lists through the API its replay source pages (how far back, and whether one exists at",
    "all, is in that provider module's README). Settings as for replay: --set KEY=VALUE or HOOKLEDGER_<PROVIDER>_<SETTING>."})
final class ReconcileCommand extends AdminCommand {
  @Mixin
  private ProviderSourceOptions options;

  @Option(names = "--until", paramLabel = "WHEN", description = "the end of the window (default: now)")
  private String until;

  @Override
  public void run() {
    Clock clock = Clock.systemUTC();
    Instant from = options.since(clock);
    Instant to = until == null ? clock.instant() : ReplayCommand.parseSince(until, clock);
    ReplaySource source;
    try {
      source = options.source();
    } catch (UnsupportedOperationException e) {
      throw new UnsupportedOperationException(options.provider + " cannot be reconciled: " + e.getMessage(), e);
    }
    ReconcileReport r = cli.admin().reconcile(source, from, to);
    cli.print(line(), AdminJson.reconcile(r), ReconcileText.text(r).stripTrailing());
  }
}
