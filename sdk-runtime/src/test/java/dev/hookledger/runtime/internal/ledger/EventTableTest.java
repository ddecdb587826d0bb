package dev.hookledger.runtime.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * The event row is described once ({@link EventTable#ROW}): the insert, its binds and the readers of
 * events derive from it, so the description must be the table the migrations make, and an event
 * must come back from its row as it went in.
 */
class EventTableTest {

  @Test
  void theColumnTableListsEveryColumnTheMigrationsMakeAndNoOther() {
    TestDatabase.Database db = TestDatabase.create();
    DSLContext dsl = LedgerDsl.on(db.dataSource());
    SchemaMigrator.migrate(dsl, "hookledger");

    List<String> inDatabase = dsl.fetch("select column_name from information_schema.columns"
        + " where table_schema = 'hookledger' and table_name = 'event'").getValues(0, String.class);
    List<String> described = EventTable.columns().stream().map(f -> f.getName()).toList();

    assertEquals(new TreeSet<>(inDatabase), new TreeSet<>(described));
    assertEquals(described.size(), new TreeSet<>(described).size(), "no column listed twice: " + described);
  }

  @Test
  void everyFieldOfAnEventComesBackFromItsRowAsItWentIn() {
    TestDatabase.Database db = TestDatabase.create();
    DSLContext dsl = LedgerDsl.on(db.dataSource());
    SchemaMigrator.migrate(dsl, "hookledger");
    EventTable events = new EventTable("hookledger");
    Ledger ledger = new Ledger(dsl, events, GroupCommit.direct(db.dataSource(), events));
    WebhookEvent sent = WebhookEvent.builder()
        .provider("testhook").scope("hook-7").eventId("evt_every_field").type("thing.happened")
        .apiVersion("2024-06-20").entityKey("thing_1").entityVersion(42L)
        .occurredAt(Instant.parse("2026-01-02T03:04:05.123456Z")).livemode(true).deliveryId("dlv-1")
        .secretId("current").signedAt(Instant.parse("2026-01-02T03:04:06Z"))
        .body("payload=%7B%7D".getBytes(StandardCharsets.UTF_8))
        .payloadJson("{\"id\":\"evt_every_field\"}".getBytes(StandardCharsets.UTF_8))
        .header("x-request-id", "req-9")
        .build();

    ledger.record(NewRow.waiting(sent, EventSource.DELIVERY));
    Record row = dsl.select(EventRows.EVENT_COLUMNS).from(events.table()).fetchSingle();
    WebhookEvent read = EventRows.toEvent(row);

    assertEquals(List.of(sent.provider(), sent.scope(), sent.eventId(), sent.type(), sent.apiVersion(),
            sent.entityKey(), sent.entityVersion(), sent.occurredAt(), sent.livemode(), sent.deliveryId(),
            sent.secretId(), sent.signedAt(), sent.payloadWrapped()),
        List.of(read.provider(), read.scope(), read.eventId(), read.type(), read.apiVersion(),
            read.entityKey(), read.entityVersion(), read.occurredAt(), read.livemode(), read.deliveryId(),
            read.secretId(), read.signedAt(), read.payloadWrapped()));
    assertArrayEquals(sent.body(), read.body());
    assertArrayEquals(sent.payloadJson(), read.payloadJson());
    assertEquals(Map.of("x-request-id", "req-9"), read.headers());
  }
}
