package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.admin.AdminJson;
import dev.hookledger.runtime.admin.AdminText;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.ReconcileReport;
import dev.hookledger.spi.ReplayReport;
import dev.hookledger.spi.ReplaySource;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "replay", description = {
    "Fetch missed events from the provider's API.",
    "Events the ledger does not have are recorded as pending; those it has are skipped.",
    "What a provider's API can replay, and for how long, is in its module's README.",
    "Settings come from --set KEY=VALUE or the environment variable HOOKLEDGER_<PROVIDER>_<SETTING>.",
    "--dry-run lists what the provider has since then that the ledger lacks (what a replay would fetch); writes nothing."})
final class ReplayCommand extends AdminCommand {
  @Mixin
  private ProviderSourceOptions source;

  @Option(names = "--type", description = "only events of this type, where the provider can filter")
  private String type;

  @Option(names = "--dry-run", description = "list what a replay would fetch (events the ledger lacks); write nothing")
  private boolean dryRun;

  @Override
  public void run() {
    Instant from = this.source.since(Clock.systemUTC());
    InboxAdmin admin = cli.admin();
    String provider = this.source.provider;
    ReplaySource source = this.source.source();
    if (dryRun) {
      // the provider's list through the replay's own paging, compared by key: nothing fetched is recorded
      ReconcileReport r = admin.reconcile(source, from, Clock.systemUTC().instant());
      StringBuilder text = new StringBuilder(provider + " replay since " + from + " (dry run): the provider lists "
          + r.listed() + " events, " + r.missing().size() + " not in the ledger would be fetched; nothing was written\n");
      ReconcileText.section(text, "would fetch", r.missing());
      cli.print(line(), AdminJson.reconcile(r).put("dryRun", true).set("wouldFetch", AdminJson.reconcileEntries(r.missing())),
          text.toString().stripTrailing());
      return;
    }
    ReplayReport r = admin.replay(source, from, Optional.ofNullable(type));
    cli.print(line(), AdminJson.replay(provider, r), provider + " replay since " + from + ": fetched "
        + r.fetched() + ", recorded " + r.recorded() + " new (pending), " + r.alreadyReceived()
        + " already received, " + r.redelivered() + " redelivered, " + r.pages() + " pages");
  }

  static Instant parseSince(String text, Clock clock) {
    return AdminText.when("--since", text, clock.instant());
  }

}
