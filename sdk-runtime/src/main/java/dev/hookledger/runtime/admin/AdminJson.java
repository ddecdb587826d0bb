package dev.hookledger.runtime.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.runtime.Health;
import dev.hookledger.runtime.RefusalCount;
import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.RefusedDelivery;
import dev.hookledger.runtime.internal.VisibleJson;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import dev.hookledger.spi.ReplayReport;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The JSON shapes of admin results, one definition for the command line's {@code --json}, the
 * {@link dev.hookledger.runtime.admin.web.AdminServlet} and any endpoint of the application's own
 * that shows them. Field names are camelCase; statuses and sources are lower-case names
 * ({@code dead}, {@code replay}); instants are ISO-8601 strings; ages are whole seconds; absent
 * values are JSON null. Each call returns a new node. Stateless and thread-safe.
 */
public final class AdminJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private AdminJson() {}

  /**
   * The text of {@code node} as the admin servlet sends it: compact, with every control and
   * bidirectional character as a JSON {@code \}{@code uXXXX} escape, so that a reader gets each value
   * exactly and a person reading the raw document sees the escape ({@link AdminText#visible}).
   */
  public static byte[] bytes(JsonNode node) {
    try {
      return VisibleJson.COMPACT.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  /** The counts, waiting, failing, stuck, dead and duplicate totals and the oldest waiting age. */
  public static ObjectNode status(InboxStatus s) {
    ObjectNode o = NODES.objectNode();
    o.put("asOf", s.asOf().toString());
    o.put("total", s.total());
    o.put("waiting", s.waiting());
    o.put("failing", s.failing());
    o.put("stuck", s.stuck());
    o.put("stuckAfterSeconds", s.stuckAfter().getSeconds());
    o.put("dead", s.dead());
    o.put("duplicates", s.duplicates());
    Optional<Long> age = s.oldestWaitingAge().map(d -> d.getSeconds());
    o.put("oldestWaitingSeconds", age.orElse(null));
    // waiting, failing and stuck above it mean "more than it": the read stopped there
    o.put("countedUpTo", InboxStatus.COUNTED);
    ArrayNode counts = o.putArray("counts");
    for (StatusCount c : s.counts()) {
      counts.addObject().put("provider", c.provider()).put("status", StatusColumn.sql(c.status()))
          .put("events", c.events()).put("duplicates", c.duplicates());
    }
    return o;
  }

  /** One list page: its events and the cursor of the next page (null on the last). */
  public static ObjectNode page(EventPage page) {
    ObjectNode o = NODES.objectNode();
    o.set("events", summaries(page.events()));
    o.put("nextCursor", page.nextCursor().orElse(null));
    return o;
  }

  /** Events as {@link #summary} shows each. */
  public static ArrayNode summaries(List<EventSummary> events) {
    ArrayNode a = NODES.arrayNode();
    events.forEach(e -> a.add(summary(e)));
    return a;
  }

  /**
   * One event as a list shows it, no body or headers: with {@code maxAttempts} (attempt k of N),
   * {@code failing}, {@code stuck}, {@code nextAttemptAt} (pending only) and the last error's
   * {@code rootCause} in one line beside the whole {@code lastError}.
   */
  public static ObjectNode summary(EventSummary e) {
    return EventSummaryJson.write(e);
  }

  /**
   * One event in full: the summary fields (with {@code attempts}, the number, as in every JSON), the
   * evidence, the lease, the body and {@code attemptHistory}, every recorded attempt oldest first
   * (an operator's retry among them, outcome {@code retried by an operator}).
   */
  public static ObjectNode detail(EventDetail d) {
    ObjectNode o = summary(d.summary());
    o.put("apiVersion", d.apiVersion().orElse(null));
    o.put("entityKey", d.entityKey().orElse(null));
    if (d.entityVersion().isPresent()) {
      o.put("entityVersion", d.entityVersion().getAsLong());
    } else {
      o.putNull("entityVersion");
    }
    o.put("occurredAt", text(d.occurredAt()));
    o.put("livemode", d.livemode().orElse(null));
    o.put("deliveryId", d.deliveryId().orElse(null));
    o.put("secretId", d.secretId().orElse(null));
    o.put("signedAt", text(d.signedAt()));
    o.put("leaseOwner", d.leaseOwner().orElse(null));
    o.put("leaseUntil", text(d.leaseUntil()));
    ObjectNode headers = o.putObject("headers");
    d.headers().forEach(headers::put);
    o.put("bodyLength", d.bodyLength());
    o.put("body", d.body());
    o.put("payload", d.payload().orElse(null));
    ArrayNode attempts = o.putArray("attemptHistory");
    for (EventAttempt a : d.attempts()) {
      attempts.addObject().put("attempt", a.attempt()).put("node", a.node()).put("startedAt", a.startedAt().toString())
          .put("endedAt", a.endedAt().toString()).put("durationMs", a.duration().toMillis()).put("outcome", a.outcome())
          .put("cause", a.cause()).put("error", a.error());
    }
    return o;
  }

  /** Causes grouped: {@code [{"cause": ..., "events": n, "failing": n, "dead": n}, ...]}, most events first. */
  public static com.fasterxml.jackson.databind.node.ArrayNode causes(List<CauseCount> causes) {
    com.fasterxml.jackson.databind.node.ArrayNode a = JsonNodeFactory.instance.arrayNode();
    causes.forEach(c -> a.addObject().put("cause", c.cause()).put("events", c.events()).put("failing", c.failing())
        .put("dead", c.dead()));
    return a;
  }

  /** Received and settled per minute: {@code {"minutes": [{"start": ..., "received": n, "settled": n}, ...]}}. */
  public static ObjectNode throughput(Throughput t) {
    ObjectNode o = NODES.objectNode();
    ArrayNode minutes = o.putArray("minutes");
    t.minutes().forEach(m -> minutes.addObject().put("start", m.start().toString()).put("received", m.received())
        .put("settled", m.settled()));
    return o;
  }

  /** What a prune deleted. */
  public static ObjectNode prune(PruneReport r) {
    return NODES.objectNode().put("deleted", r.deleted()).put("batches", r.batches())
        .put("cutoff", r.cutoff().toString());
  }

  /** What a replay of {@code provider} fetched and recorded. */
  public static ObjectNode replay(String provider, ReplayReport r) {
    return NODES.objectNode().put("provider", provider).put("fetched", r.fetched())
        .put("recorded", r.recorded()).put("alreadyReceived", r.alreadyReceived())
        .put("redelivered", r.redelivered()).put("pages", r.pages());
  }

  /** A runtime's {@link Health}: its status and reason, the liveness of its parts and the backlog it saw. */
  public static ObjectNode health(Health h) {
    return NODES.objectNode()
        .put("status", h.status().name().toLowerCase(Locale.ROOT))
        .put("reason", h.reason().orElse(null))
        .put("up", h.up())
        .put("running", h.running())
        .put("databaseReachable", h.databaseReachable())
        .put("workers", h.workers())
        .put("workersAlive", h.workersAlive())
        .put("pollerAlive", h.pollerAlive())
        .put("listenerConnected", h.listenerConnected())
        .put("failuresSurvived", h.failuresSurvived())
        .put("waiting", h.waiting())
        .put("stuck", h.stuck())
        .put("dead", h.dead())
        .put("oldestWaitingSeconds", h.oldestWaitingAge().getSeconds())
        .put("deadEffects", h.deadEffects())
        .put("openBreakers", h.openBreakers());
  }

  /**
   * Refused deliveries counted: {@code {"total": n, "counts": [{"provider", "reason", "httpStatus",
   * "count"}, ...]}}, reasons in lower case as the metrics tag them. For health details.
   */
  public static ObjectNode refusedCounts(RefusedDeliveries refused) {
    ObjectNode o = NODES.objectNode().put("total", refused.total());
    ArrayNode counts = o.putArray("counts");
    for (RefusalCount c : refused.counts()) {
      counts.addObject().put("provider", c.provider()).put("reason", lower(c.reason()))
          .put("httpStatus", c.reason().httpStatus()).put("count", c.count());
    }
    return o;
  }

  /** As {@link #refusedCounts}, with every kept request, newest first, under {@code recent}; never a body. */
  public static ObjectNode refused(RefusedDeliveries refused) {
    ObjectNode o = refusedCounts(refused);
    ArrayNode recent = o.putArray("recent");
    for (RefusedDelivery r : refused.recent()) {
      ObjectNode item = recent.addObject().put("at", r.at().toString()).put("provider", r.provider())
          .put("reason", lower(r.reason())).put("remoteAddress", r.remoteAddress()).put("path", r.path());
      ObjectNode headers = item.putObject("headers");
      r.headers().forEach(headers::put);
    }
    return o;
  }

  /**
   * Refused deliveries read from the ledger ({@link InboxAdmin#refusedCounts()}): {@code [{"provider",
   * "reason", "httpStatus", "count", "lastAt"}, ...]}, reasons in lower case as the metrics tag them.
   */
  public static ArrayNode refusedCounts(List<RefusedCount> refused) {
    ArrayNode a = NODES.arrayNode();
    for (RefusedCount c : refused) {
      a.addObject().put("provider", c.provider()).put("reason", lower(c.reason()))
          .put("httpStatus", c.reason().httpStatus()).put("count", c.count()).put("lastAt", c.lastAt().toString());
    }
    return a;
  }

  /**
   * A {@link ReconcileReport}: {@code {"provider", "since", "until", "listed", "ledger", "agrees",
   * "missingFromLedger": [{"scope", "eventId", "type", "providerDelivery", "providerDetail",
   * "ledgerStatus"}, ...], "notListedByProvider": [...], "statusDiffers": [...]}}.
   */
  public static ObjectNode reconcile(ReconcileReport r) {
    ObjectNode o = NODES.objectNode();
    o.put("provider", r.provider());
    o.put("since", r.since().toString());
    o.put("until", r.until().toString());
    o.put("listed", r.listed());
    o.put("ledger", r.ledger());
    o.put("agrees", r.agrees());
    o.set("missingFromLedger", reconcileEntries(r.missing()));
    o.set("notListedByProvider", reconcileEntries(r.unlisted()));
    o.set("statusDiffers", reconcileEntries(r.differing()));
    return o;
  }

  /** Entries of a {@link ReconcileReport}, as {@link #reconcile} shows them. */
  public static ArrayNode reconcileEntries(List<ReconcileReport.Entry> entries) {
    ArrayNode a = NODES.arrayNode();
    for (ReconcileReport.Entry e : entries) {
      a.addObject().put("scope", e.scope()).put("eventId", e.eventId()).put("type", e.type())
          .put("providerDelivery", e.providerDelivery()).put("providerDetail", e.providerDetail())
          .put("ledgerStatus", e.ledgerStatus());
    }
    return a;
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  private static String text(Optional<Instant> at) {
    return at.map(Instant::toString).orElse(null);
  }
}
