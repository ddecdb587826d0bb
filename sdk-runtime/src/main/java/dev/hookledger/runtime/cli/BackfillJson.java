package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.runtime.admin.Backfill;
import dev.hookledger.runtime.admin.BackfillPlan;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** The JSON shapes of backfills, as {@code AdminJson} writes the others: camelCase, ISO instants, null when absent. */
final class BackfillJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private BackfillJson() {}

  public static ObjectNode backfill(Backfill b) {
    ObjectNode o = NODES.objectNode();
    o.put("id", b.id());
    b.handlers().forEach(o.putArray("handlers")::add);
    o.put("provider", b.provider());
    o.put("type", b.type());
    o.put("since", text(b.since()));
    o.put("until", text(b.until()));
    o.put("legacy", b.legacy().name().toLowerCase(Locale.ROOT));
    o.put("status", b.status().name().toLowerCase(Locale.ROOT));
    o.put("selected", b.selected());
    o.put("applied", b.applied());
    o.put("skipped", b.skipped());
    o.put("failed", b.failed());
    o.put("progress", b.progress());
    o.put("runningOn", b.owner());
    o.put("createdAt", text(b.createdAt()));
    o.put("finishedAt", text(b.finishedAt()));
    return o;
  }

  public static ObjectNode backfills(List<Backfill> all) {
    ObjectNode o = NODES.objectNode();
    all.forEach(b -> o.withArray("backfills").add(backfill(b)));
    o.withArray("backfills");
    return o;
  }

  public static ObjectNode plan(BackfillPlan p) {
    return NODES.objectNode().put("dryRun", true).put("selected", p.selected())
        .put("alreadyApplied", p.alreadyApplied()).put("legacy", p.legacy()).put("toVisit", p.toVisit());
  }

  /** {@code [#####.....]  50%  500/1000 (applied 480, skipped 20, failed 0)}: one line of the CLI's progress bar. */
  public static String bar(Backfill b, int width) {
    int filled = (int) Math.round(b.progress() * width);
    return "[" + "#".repeat(filled) + ".".repeat(width - filled) + "] " + String.format(Locale.ROOT, "%3d%%",
        Math.round(b.progress() * 100)) + "  " + b.visited() + "/" + b.total() + " (applied " + b.applied()
        + ", skipped " + b.skipped() + ", failed " + b.failed() + ")";
  }

  private static String text(Instant t) {
    return t == null ? null : t.toString();
  }
}
