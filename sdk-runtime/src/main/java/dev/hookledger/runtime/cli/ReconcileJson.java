package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.runtime.admin.ReconcileReport;
import java.util.List;

/** The JSON and text shapes of a {@link ReconcileReport}, for the command line's {@code reconcile} and {@code replay --dry-run}. */
final class ReconcileJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ReconcileJson() {}

  public static ObjectNode report(ReconcileReport r) {
    ObjectNode o = NODES.objectNode();
    o.put("provider", r.provider());
    o.put("since", r.since().toString());
    o.put("until", r.until().toString());
    o.put("listed", r.listed());
    o.put("ledger", r.ledger());
    o.put("agrees", r.agrees());
    o.set("missingFromLedger", entries(r.missing()));
    o.set("notListedByProvider", entries(r.unlisted()));
    o.set("statusDiffers", entries(r.differing()));
    return o;
  }

  public static ArrayNode entries(List<ReconcileReport.Entry> entries) {
    ArrayNode a = NODES.arrayNode();
    for (ReconcileReport.Entry e : entries) {
      a.addObject().put("scope", e.scope()).put("eventId", e.eventId()).put("type", e.type())
          .put("providerDelivery", e.providerDelivery()).put("providerDetail", e.providerDetail())
          .put("ledgerStatus", e.ledgerStatus());
    }
    return a;
  }

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
