package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.admin.AdminJson;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.PruneReport;
import dev.hookledger.runtime.internal.admin.DurationText;
import dev.hookledger.runtime.internal.admin.TimeText;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "prune", description = {
    "Delete settled events older than a window (default 30d).",
    "Only done, ignored and stale events are deleted, never pending, processing or dead ones.",
    "A window under 3d is refused unless --force: providers still redeliver such events, and a pruned id would be processed twice.",
    "--dry-run counts what would be deleted and deletes nothing.",
    "Deletes in short batches, oldest first; progress goes to stderr every few seconds."})
final class PruneCommand extends AdminCommand {
  @Option(names = "--older-than", defaultValue = "30d", paramLabel = "DURATION",
      description = "keep events settled within this window: 30d, 72h, ... (default: ${DEFAULT-VALUE})")
  private String olderThan;

  @Option(names = "--force", description = "allow a window shorter than the minimum")
  private boolean force;

  @Option(names = "--dry-run", description = "count the events that would be deleted; delete nothing")
  private boolean dryRun;

  @Override
  public void run() {
    Duration window = DurationText.parse(olderThan);
    InboxAdmin admin = cli.admin();
    if (dryRun) {
      PruneReport r = admin.prunePreview(window, force);
      // JSON: nothing was deleted; what would be is "wouldDelete"
      cli.print(line(), AdminJson.prune(r).put("deleted", 0).put("wouldDelete", r.deleted()).put("dryRun", true), "would prune " + r.deleted() + " settled events ("
          + "settled before " + TimeText.second(r.cutoff()) + ", older than " + DurationText.format(window)
          + "); nothing was deleted (dry run)");
      return;
    }
    long eligible = admin.prunePreview(window, force).deleted();
    PruneReport r = admin.prune(window, force, new Progress(line().getErr(), eligible));
    cli.print(line(), AdminJson.prune(r).put("dryRun", false), "pruned " + r.deleted() + " settled events (settled before "
        + TimeText.second(r.cutoff()) + ", older than " + DurationText.format(window) + ") in " + r.batches() + " batches");
  }

  /** Prints the totals so far at most every {@link #EVERY}, so a prune of millions says how far it is. */
  static final class Progress implements Consumer<PruneReport> {
    static final Duration EVERY = Duration.ofSeconds(2);
    private final PrintWriter err;
    private final long eligible;
    private long last = System.nanoTime();

    Progress(PrintWriter err, long eligible) {
      this.err = err;
      this.eligible = eligible;
    }

    @Override
    public void accept(PruneReport r) {
      long now = System.nanoTime();
      if (now - last >= EVERY.toNanos()) {
        last = now;
        long percent = eligible == 0 ? 100 : Math.min(100, r.deleted() * 100 / eligible);
        err.println("pruned " + r.deleted() + " of " + eligible + " settled events (" + percent + "%, "
            + r.batches() + " batches)");
        err.flush();
      }
    }
  }
}
