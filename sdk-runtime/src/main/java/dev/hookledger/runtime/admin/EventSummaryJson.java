package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.ATTEMPTS;
import static dev.hookledger.runtime.internal.ledger.EventTable.AVAILABLE_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.DUPLICATES;
import static dev.hookledger.runtime.internal.ledger.EventTable.EVENT_ID;
import static dev.hookledger.runtime.internal.ledger.EventTable.LAST_ERROR;
import static dev.hookledger.runtime.internal.ledger.EventTable.MAX_ATTEMPTS;
import static dev.hookledger.runtime.internal.ledger.EventTable.PROVIDER;
import static dev.hookledger.runtime.internal.ledger.EventTable.RECEIVED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.SCOPE;
import static dev.hookledger.runtime.internal.ledger.EventTable.SETTLED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.SOURCE;
import static dev.hookledger.runtime.internal.ledger.EventTable.STATUS;
import static dev.hookledger.runtime.internal.ledger.EventTable.TYPE;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.SourceColumn;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jooq.Field;

/**
 * {@link AdminJson#summary}: one event as a list shows it, written from one list of fields. Each
 * field the ledger row holds is named by its column in the event table ({@code event_id} is
 * {@code eventId}), the columns being those {@link EventTable#summaryColumns()} marks for a summary,
 * which the summary view reads too; the rest are what a summary computes from them.
 */
final class EventSummaryJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** A field of the JSON: its name, the column it shows (null if computed), and its value. */
  private record JsonField(String name, Field<?> column, Function<EventSummary, Object> value) {}

  private static final List<JsonField> FIELDS = List.of(
      column(PROVIDER, EventSummary::provider),
      column(SCOPE, EventSummary::scope),
      column(EVENT_ID, EventSummary::eventId),
      column(TYPE, EventSummary::type),
      column(STATUS, e -> StatusColumn.sql(e.status())),
      column(SOURCE, e -> SourceColumn.sql(e.source())),
      column(ATTEMPTS, EventSummary::attempts),
      column(MAX_ATTEMPTS, EventSummary::maxAttempts),
      computed("failing", EventSummary::failing),
      computed("stuck", EventSummary::stuck),
      column(DUPLICATES, EventSummary::duplicates),
      column(RECEIVED_AT, e -> e.receivedAt().toString()),
      column(AVAILABLE_AT, e -> e.availableAt().toString()),
      column(SETTLED_AT, e -> text(e.settledAt())),
      computed("nextAttemptAt", e -> text(e.nextAttemptAt())),
      computed("rootCause", e -> e.rootCause().orElse(null)),
      column(LAST_ERROR, e -> e.lastError().orElse(null)));

  private EventSummaryJson() {}

  static ObjectNode write(EventSummary e) {
    ObjectNode o = NODES.objectNode();
    for (JsonField f : FIELDS) {
      Object v = f.value().apply(e);
      if (v == null) {
        o.putNull(f.name());
      } else if (v instanceof Integer i) {
        o.put(f.name(), i);
      } else if (v instanceof Boolean b) {
        o.put(f.name(), b);
      } else {
        o.put(f.name(), (String) v);
      }
    }
    return o;
  }

  /** The columns the fields show, in their order (a test holds them equal to the summary's columns). */
  static List<Field<?>> columns() {
    return FIELDS.stream().filter(f -> f.column() != null).<Field<?>>map(JsonField::column).toList();
  }

  private static JsonField column(Field<?> column, Function<EventSummary, Object> value) {
    return new JsonField(EventTable.jsonName(column), column, value);
  }

  private static JsonField computed(String name, Function<EventSummary, Object> value) {
    return new JsonField(name, null, value);
  }

  private static String text(Optional<Instant> at) {
    return at.map(Instant::toString).orElse(null);
  }
}
