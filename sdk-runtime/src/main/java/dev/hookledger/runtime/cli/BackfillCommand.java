package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.admin.Backfill;
import dev.hookledger.runtime.admin.BackfillPlan;
import dev.hookledger.runtime.admin.BackfillRequest;
import dev.hookledger.runtime.admin.BackfillStatus;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.LegacyEvents;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "backfill", description = {
    "Run named @OnEvent handlers over stored events, exactly once per handler and event.",
    "Records a backfill in the ledger; a running application node that registers every named handler runs it,",
    "oldest first, one event per transaction, pausing while live events wait; another node resumes it if that one stops.",
    "Events settled before handler bookkeeping (legacy) count as applied unless --legacy apply.",
    "Shows a progress bar on stderr until it is done (Ctrl-C detaches; the backfill goes on).",
    "--dry-run counts what it would do and records nothing. --list, --show ID and --cancel ID manage backfills."})
final class BackfillCommand extends AdminCommand {
  static final Duration REFRESH = Duration.ofMillis(500);

  @Option(names = "--handler", paramLabel = "NAME",
      description = "a handler's name: @OnEvent(name), else fully.qualified.Class#method (repeatable)")
  private List<String> handlers = new ArrayList<>();

  @Option(names = "--provider", description = "only events of this provider")
  private String provider;

  @Option(names = "--type", paramLabel = "PATTERN", description = "only events of this type or pattern (invoice.*)")
  private String type;

  @Option(names = "--since", paramLabel = "WHEN",
      description = "only events received at or after: an ISO instant, a date (UTC) or a duration back (30d)")
  private String since;

  @Option(names = "--until", paramLabel = "WHEN", description = "only events received before (default: now)")
  private String until;

  @Option(names = "--legacy", paramLabel = "skip|apply", defaultValue = "skip",
      description = "events settled before handler bookkeeping: skip (count as applied) or apply (default: ${DEFAULT-VALUE})")
  private String legacy;

  @Option(names = "--max-per-second", paramLabel = "N", description = "the most events applied per second (default: "
      + BackfillRequest.DEFAULT_MAX_PER_SECOND + ")")
  private Integer maxPerSecond;

  @Option(names = "--max-backlog", paramLabel = "N", description = "pause while more events than this wait for live"
      + " processing (default: " + BackfillRequest.DEFAULT_MAX_BACKLOG + ")")
  private Integer maxBacklog;

  @Option(names = "--dry-run", description = "count what the backfill would do; record nothing")
  private boolean dryRun;

  @Option(names = "--detach", description = "record the backfill and return at once, without the progress bar")
  private boolean detach;

  @Option(names = "--list", description = "list the backfills, newest first")
  private boolean list;

  @Option(names = "--show", paramLabel = "ID", description = "follow one backfill's progress (with --detach: print it once)")
  private Long show;

  @Option(names = "--cancel", paramLabel = "ID", description = "stop a running backfill; what it applied stays applied")
  private Long cancel;

  @Override
  public void run() {
    InboxAdmin admin = cli.admin();
    if (list) {
      List<Backfill> all = admin.backfills();
      StringBuilder text = new StringBuilder(all.isEmpty() ? "no backfills" : "");
      all.forEach(b -> text.append(text.length() == 0 ? "" : "\n").append(summary(b)));
      cli.print(line(), BackfillJson.backfills(all), text.toString());
      return;
    }
    if (cancel != null) {
      if (!admin.cancelBackfill(cancel)) {
        throw new IllegalArgumentException("no backfill " + cancel + " is running");
      }
      cli.print(line(), BackfillJson.backfill(admin.backfill(cancel).orElseThrow()), "backfill " + cancel + " cancelled");
      return;
    }
    if (show != null) {
      Backfill b = admin.backfill(show).orElseThrow(() -> new IllegalArgumentException("no backfill " + show));
      finish(admin, b);
      return;
    }
    if (handlers.isEmpty()) {
      throw new IllegalArgumentException("name at least one handler with --handler (or use --list, --show, --cancel)");
    }
    BackfillRequest request = request();
    if (dryRun) {
      BackfillPlan p = admin.planBackfill(request);
      cli.print(line(), BackfillJson.plan(p), "would visit " + p.toVisit() + " of " + p.selected() + " selected events ("
          + p.alreadyApplied() + " already applied by every named handler, " + p.legacy() + " legacy"
          + (request.legacy() == LegacyEvents.SKIP ? ", skipped" : ", applied") + "); nothing was recorded (dry run)");
      return;
    }
    Backfill b = admin.startBackfill(request);
    line().getErr().println("backfill " + b.id() + " recorded: " + b.selected() + " events selected; it runs on a node"
        + " that registers " + String.join(", ", b.handlers()));
    finish(admin, b);
  }

  /** Follows the backfill with a progress bar on stderr until it ends (unless --detach), then prints it. */
  private void finish(InboxAdmin admin, Backfill started) {
    Backfill b = started;
    if (!detach && !cli.json()) {
      b = follow(admin, b, line().getErr(), cli);
    }
    cli.print(line(), BackfillJson.backfill(b), summary(b));
  }

  private static Backfill follow(InboxAdmin admin, Backfill b, PrintWriter err, HookledgerCli cli) {
    boolean waitingSaid = false;
    long since = System.nanoTime();
    while (b.status() == BackfillStatus.RUNNING) {
      cli.carriageReturn(err);
      err.print(BackfillJson.bar(b, 30));
      err.flush();
      if (!waitingSaid && b.runningOn().isEmpty() && b.visited() == 0
          && System.nanoTime() - since > Duration.ofSeconds(10).toNanos()) {
        err.println();
        err.println("no node has taken it yet: is an application node running that registers every named handler?");
        waitingSaid = true;
      }
      try {
        Thread.sleep(REFRESH.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      long id = b.id();
      b = admin.backfill(id).orElseThrow(() -> new IllegalStateException("backfill " + id + " disappeared"));
    }
    cli.carriageReturn(err);
    err.println(BackfillJson.bar(b, 30));
    return b;
  }

  private BackfillRequest request() {
    BackfillRequest.Builder r = BackfillRequest.builder(handlers.toArray(String[]::new));
    if (provider != null) {
      r.provider(provider);
    }
    if (type != null) {
      r.type(type);
    }
    Clock clock = Clock.systemUTC();
    if (since != null) {
      r.since(ReplayCommand.parseSince(since, clock));
    }
    if (until != null) {
      r.until(ReplayCommand.parseSince(until, clock));
    }
    try {
      r.legacy(LegacyEvents.valueOf(legacy.toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--legacy must be skip or apply, but was '" + legacy + "'");
    }
    if (maxPerSecond != null) {
      r.maxPerSecond(maxPerSecond);
    }
    if (maxBacklog != null) {
      r.maxBacklog(maxBacklog);
    }
    return r.build();
  }

  static String summary(Backfill b) {
    return "backfill " + b.id() + " " + b.status().name().toLowerCase(Locale.ROOT) + ": " + String.join(", ", b.handlers())
        + " over " + (b.provider() == null ? "every provider" : b.provider()) + " " + b.type() + ", "
        + b.visited() + " of " + b.total() + " visited (applied " + b.applied() + ", skipped " + b.skipped()
        + ", failed " + b.failed() + ")" + b.runningOn().map(o -> ", running on " + o).orElse("");
  }
}
