package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventTable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * An event's summary is written from the event table's one list of columns: the summary view
 * selects exactly the columns {@link EventTable#summaryColumns()} marks (each is needed, none is
 * missing), and {@link AdminJson#summary} shows each of them under its column's name, beside the
 * fields a summary computes.
 */
class EventSummaryColumnsTest {
  private static final Instant AT = Instant.parse("2026-12-01T12:00:00Z");
  private final EventViews views = new EventViews(5, Duration.ofMinutes(5));

  @Test
  void theSummaryViewReadsEveryColumnItSelectsAndNoOther() {
    EventSummary s = views.summary(record(views.summaryFields()));
    assertEquals("evt_1", s.eventId());
    assertEquals(EventStatus.PENDING, s.status());
    for (Field<?> column : EventTable.summaryColumns()) {
      List<Field<?>> without = new ArrayList<>(views.summaryFields());
      without.remove(column);
      assertThrows(IllegalArgumentException.class, () -> views.summary(record(without)),
          column.getName() + " is selected for a summary but not read by it");
    }
  }

  @Test
  void theJsonSummaryShowsEverySummaryColumnByItsName() {
    assertEquals(EventTable.summaryColumns().stream().map(Field::getName).sorted().toList(),
        EventSummaryJson.columns().stream().map(Field::getName).sorted().toList());
    var json = AdminJson.summary(views.summary(record(views.summaryFields())));
    assertEquals(List.of("provider", "scope", "eventId", "type", "status", "source", "attempts", "maxAttempts", "failing",
        "stuck", "duplicates", "receivedAt", "availableAt", "settledAt", "nextAttemptAt", "rootCause", "lastError"),
        iterable(json.fieldNames()));
    assertEquals("evt_1", json.get("eventId").asText());
    assertEquals(2, json.get("attempts").asInt());
    assertEquals("pending", json.get("status").asText());
    assertEquals(true, json.get("settledAt").isNull());
  }

  private static Record record(List<Field<?>> fields) {
    Map<String, Object> values = Map.of("provider", "stripe", "scope", "", "event_id", "evt_1", "type", "invoice.paid",
        "status", "pending", "source", "delivery", "attempts", 2, "duplicates", 0, "received_at", AT, "available_at", AT);
    Record r = DSL.using(SQLDialect.POSTGRES).newRecord(fields.toArray(Field<?>[]::new));
    for (Field<?> f : fields) {
      set(r, f, values.get(f.getName()));
    }
    return r;
  }

  @SuppressWarnings("unchecked")
  private static <T> void set(Record r, Field<T> f, Object value) {
    r.set(f, (T) value);
  }

  private static List<String> iterable(java.util.Iterator<String> names) {
    List<String> out = new ArrayList<>();
    names.forEachRemaining(out::add);
    return out;
  }
}
