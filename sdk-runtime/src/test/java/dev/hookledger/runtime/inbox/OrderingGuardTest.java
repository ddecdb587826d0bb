package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.SIGNER;
import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.OnEvent;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code @OnEvent(skipStale = true)} methods see only the newest state of an entity; the version
 * check and their writes share one transaction. Events are delivered one at a time, each settled
 * before the next, so that the order of delivery is the order of processing.
 */
class OrderingGuardTest {
  TestDatabase.Database db;
  WebhookRuntime runtime;
  final Subscriptions handler = new Subscriptions();

  @BeforeEach
  void start() {
    db = InboxFixture.database();
    db.execute("create table subscription (id text primary key, version bigint not null, plan text not null)");
    runtime = builder(db.jdbcUrl(), handler).inbox(i -> i.workers(1)).build();
    runtime.start();
  }

  @AfterEach
  void stop() {
    runtime.close();
  }

  @Test
  void versionsOneThreeTwoLeaveVersionThreeAndSettleTwoAsStale() {
    assertEquals("done", deliver("evt_v1", "subscription.updated", "sub_1", 1, "{\"plan\":\"basic\"}"));
    assertEquals("done", deliver("evt_v3", "subscription.updated", "sub_1", 3, "{\"plan\":\"pro\"}"));
    assertEquals("stale", deliver("evt_v2", "subscription.updated", "sub_1", 2, "{\"plan\":\"team\"}"));

    assertEquals(Map.of("version", 3L, "plan", "pro"), subscription("sub_1"));
    assertEquals(Map.of("version", 3L, "event_id", "evt_v3"), entityVersion("sub_1"));
    assertEquals(List.of("apply evt_v1", "apply evt_v3"), handler.calls);
    assertEquals(null, event(db, "evt_v2").get("last_error"));
  }

  @Test
  void equalVersionsAreNotStale() {
    assertEquals("done", deliver("evt_a", "subscription.updated", "sub_2", 5, "{\"plan\":\"basic\"}"));
    assertEquals("done", deliver("evt_b", "subscription.updated", "sub_2", 5, "{\"plan\":\"pro\"}"));

    assertEquals(Map.of("version", 5L, "plan", "pro"), subscription("sub_2"));
    assertEquals(Map.of("version", 5L, "event_id", "evt_b"), entityVersion("sub_2"));
    assertEquals(List.of("apply evt_a", "apply evt_b"), handler.calls);
  }

  @Test
  void aRolledBackHandlerLeavesTheVersionWhereItWas() {
    assertEquals("done", deliver("evt_v2", "subscription.updated", "sub_3", 2, "{\"plan\":\"basic\"}"));
    runtime.receive("testhook", SIGNER.delivery("testhook", "evt_v7", "subscription.updated", "{\"plan\":\"x\",\"fail\":true}",
        "sub_3", 7));
    Await.until("version 7's attempt failed", () -> event(db, "evt_v7").get("last_error") != null);

    assertEquals(Map.of("version", 2L, "event_id", "evt_v2"), entityVersion("sub_3"));
    assertEquals("done", deliver("evt_v5", "subscription.updated", "sub_3", 5, "{\"plan\":\"pro\"}"),
        "version 5 is newer than what was committed");
    assertEquals(Map.of("version", 5L, "plan", "pro"), subscription("sub_3"));
  }

  @Test
  void staleEventStillRunsTheMethodsThatDoNotSkipStaleAndSettlesDone() {
    assertEquals("done", deliver("evt_i3", "invoice.updated", "in_1", 3, "{}"));
    assertEquals("done", deliver("evt_i1", "invoice.updated", "in_1", 1, "{}"));

    assertEquals(List.of("audit evt_i3", "track evt_i3", "audit evt_i1"), handler.calls);
  }

  @Test
  void eventWithoutEntityVersionIsNeverStaleAndRecordsNoVersion() {
    assertEquals("done", deliver("evt_v9", "invoice.updated", "in_2", 9, "{}"));
    runtime.receive("testhook", SIGNER.delivery("testhook", "evt_none", "invoice.updated", "{}"));
    InboxFixture.awaitStatus(db, "evt_none", "done");

    assertEquals(List.of("audit evt_v9", "track evt_v9", "audit evt_none", "track evt_none"), handler.calls);
    assertEquals(1, InboxFixture.number(db, "select count(*) from hookledger.entity_version"));
  }

  private String deliver(String id, String type, String entity, long version, String body) {
    Receipt receipt = runtime.receive("testhook", SIGNER.delivery("testhook", id, type, body, entity, version));
    assertEquals(Receipt.Outcome.ACCEPTED, receipt.outcome());
    Await.until(id + " settles", () -> event(db, id).get("settled_at") != null);
    return (String) event(db, id).get("status");
  }

  private Map<String, Object> subscription(String id) {
    return LedgerRows.first(db.dataSource(), "select version, plan from subscription where id = ?", id).orElseThrow();
  }

  private Map<String, Object> entityVersion(String key) {
    Optional<Map<String, Object>> row = LedgerRows.first(db.dataSource(),
        "select version, event_id from hookledger.entity_version where provider = 'testhook' and entity_key = ?", key);
    return row.orElseThrow();
  }

  static final class Subscriptions {
    final List<String> calls = new CopyOnWriteArrayList<>();

    @OnEvent(value = "subscription.updated", skipStale = true)
    void apply(JsonNode payload, WebhookEvent event, DSLContext tx) {
      tx.execute("insert into subscription values (?, ?, ?) on conflict (id) do update"
          + " set version = excluded.version, plan = excluded.plan",
          event.entityKey().orElseThrow(), event.entityVersion().getAsLong(), payload.path("plan").asText());
      if (payload.path("fail").asBoolean()) {
        throw new IllegalStateException("fails after its write");
      }
      calls.add("apply " + event.eventId());
    }

    @OnEvent("invoice.updated")
    void audit(WebhookEvent event) {
      calls.add("audit " + event.eventId());
    }

    @OnEvent(value = "invoice.updated", skipStale = true)
    void track(WebhookEvent event) {
      calls.add("track " + event.eventId());
    }
  }
}
