package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.time.Duration;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * One bad event never blocks the good ones behind it: neither one that always fails nor one that
 * never ends; and a row the claim cannot read does not stop polling for good.
 */
class PoisonEventTest {

  @Test
  void fiftyGoodEventsBehindAFailingAndAHangingOneAllFinish() {
    TestDatabase.Database db = InboxFixture.database();
    Gate gate = new Gate();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), new Handlers(gate)).inbox(i -> i.workers(2)
            .retryPolicy(RetryPolicy.builder().firstDelay(Duration.ofMillis(50)).factor(1).maxAttempts(3).jitter(0).build()))
        .build()) {
      runtime.start();
      try {
        InboxFixture.receive(runtime, "evt_hang", "job.hang", "{}");
        InboxFixture.receive(runtime, "evt_poison", "job.poison", "{}");
        for (int i = 0; i < 50; i++) {
          InboxFixture.receive(runtime, "evt_good_" + i, "job.good", "{}");
        }
        Await.until("the 50 good events are done", () -> number(db,
            "select count(*) from hookledger.event where type = 'job.good' and status = 'done'") == 50);
        InboxFixture.awaitStatus(db, "evt_poison", "dead");

        assertEquals(50, number(db, "select count(*) from effect where node = 'good'"));
        assertEquals(3, event(db, "evt_poison").get("attempts"));
        assertEquals("processing", event(db, "evt_hang").get("status"), "still holding one of the two workers");
      } finally {
        gate.open();
      }
    }
    assertEquals("done", event(db, "evt_hang").get("status"));
  }

  @Test
  void pollingGoesOnAfterAClaimFailsOnARowItCannotRead() {
    // counts claims with a trigger on the event table, which Citus refuses on a distributed table
    assumeFalse(TestDatabase.citus(), "fixture not runnable on Citus");
    TestDatabase.Database db = InboxFixture.database();
    // valid jsonb, but not the object of headers the claim reads back: every claim that reaches it rolls back
    db.execute("insert into hookledger.event (provider, event_id, type, body, headers, available_at)"
        + " values ('testhook', 'evt_unreadable', 'job.any', '\\x7b7d'::bytea, '[]'::jsonb, now() - interval '1 minute')");
    // counts the claims that take the row: a sequence, since each claim's transaction rolls back
    db.execute("create sequence claims; create function count_claim() returns trigger language plpgsql as"
        + " $$ begin perform nextval('claims'); return new; end $$;"
        + " create trigger count_claim before update on hookledger.event for each row"
        + " when (old.event_id = 'evt_unreadable') execute function count_claim()");
    try (WebhookRuntime runtime = builder(db.jdbcUrl()).build()) {
      runtime.start();
      Await.until("three claims, each failing on the unreadable row", () -> number(db,
          "select case when is_called then last_value else 0 end from claims") >= 3);
      assertEquals("pending", event(db, "evt_unreadable").get("status"));

      db.execute("update hookledger.event set headers = '{}'::jsonb where event_id = 'evt_unreadable'");

      InboxFixture.awaitStatus(db, "evt_unreadable", "ignored");
    }
  }

  static final class Handlers {
    final Gate gate;

    Handlers(Gate gate) {
      this.gate = gate;
    }

    @OnEvent("job.good")
    void good(EventContext context, DSLContext tx) {
      tx.execute("insert into effect (event_id, node) values (?, 'good')", context.event().eventId());
    }

    @OnEvent("job.poison")
    void poison() {
      throw new IllegalStateException("this event can never be processed");
    }

    @OnEvent("job.hang")
    void hang() {
      gate.pass();
    }
  }
}
