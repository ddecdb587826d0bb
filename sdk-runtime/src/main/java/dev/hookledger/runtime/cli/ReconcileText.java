package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.admin.ReconcileReport;
import java.util.List;

/**
 * The text shape of a {@link ReconcileReport}, for the command line's {@code reconcile} and
 * {@code replay --dry-run}; the JSON shape is {@link dev.hookledger.runtime.admin.AdminJson#reconcile}.
 */
final class ReconcileText {
  private ReconcileText() {}

  /** The report as lines of text: a heading per kind of difference, one line per event. */
  public static String text(ReconcileReport r) {
    StringBuilder t = new StringBuilder();
    t.append(r.provider()).append(" reconcile from ").append(r.since()).append(" to ").append(r.until())
        .append(": the provider lists ").append(r.listed()).append(" events, the ledger has ").append(r.ledger())
        .append(" in the window; nothing was written\n");
    if (r.agrees()) {
      return t.append("the ledger and the provider agree\n").toString();
    }
    section(t, "missing from the ledger", r.missing());
    section(t, "in the ledger, not listed by the provider", r.unlisted());
    section(t, "in both, status differs", r.differing());
    return t.toString();
  }

  public static void section(StringBuilder t, String title, List<ReconcileReport.Entry> entries) {
    t.append(title).append(" (").append(entries.size()).append(")").append(entries.isEmpty() ? "" : ":").append('\n');
    for (ReconcileReport.Entry e : entries) {
      t.append("  ").append(e.eventId()).append(e.scope().isEmpty() ? "" : " (scope " + e.scope() + ")").append("  ")
          .append(e.type());
      if (e.providerDelivery() != null) {
        t.append("  provider: ").append(e.providerDelivery()).append(" (").append(e.providerDetail()).append(')');
      }
      if (e.ledgerStatus() != null) {
        t.append("  ledger: ").append(e.ledgerStatus());
      }
      t.append('\n');
    }
  }
}
