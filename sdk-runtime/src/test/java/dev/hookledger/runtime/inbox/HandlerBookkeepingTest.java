package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.awaitStatus;
import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static dev.hookledger.runtime.inbox.InboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.StatementRecorder;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ledger records, in the handlers' own transaction, which named {@code @OnEvent} methods applied
 * each event, and never applies one method to one event twice, whatever brings the event back.
 */
class HandlerBookkeepingTest {
  private TestDatabase.Database db;
  private WebhookRuntime runtime;

  @BeforeEach
  void setUp() {
    db = InboxFixture.database();
    db.execute("create table audit (event_id text not null)");
    runtime = builder(db.jdbcUrl(), new CountingHandler("a", null), new Audit()).build();
    runtime.start();
  }

  @AfterEach
  void tearDown() {
    runtime.close();
  }

  @Test
  void liveProcessingRecordsEveryHandlerThatAppliedTheEvent() {
    receive(runtime, "evt_1", "job.count", "{}");
    awaitStatus(db, "evt_1", "done");
    assertEquals(List.of("audit", CountingHandler.class.getName() + "#count"),
        DSL.using(db.dataSource(), SQLDialect.POSTGRES).fetch("select handler from hookledger.handler_applied where event_id = 'evt_1' order by handler collate \"C\"")
            .getValues(0, String.class));
  }

  @Test
  void anEventBackInTheQueueDoesNotApplyAHandlerTwice() {
    receive(runtime, "evt_2", "job.count", "{}");
    awaitStatus(db, "evt_2", "done");
    settleAgain("evt_2");
    assertEquals(1, number(db, "select n from effect_count where event_id = 'evt_2'"), "counted once");
    assertEquals(1, number(db, "select count(*) from audit where event_id = 'evt_2'"), "audited once");
  }

  @Test
  void aHandlerAddedLaterIsTheOnlyOneAppliedWhenTheEventComesBack() {
    receive(runtime, "evt_3", "job.count", "{}");
    awaitStatus(db, "evt_3", "done");
    db.execute("delete from hookledger.handler_applied where event_id = 'evt_3' and handler = 'audit'");
    settleAgain("evt_3");
    assertEquals(1, number(db, "select n from effect_count where event_id = 'evt_3'"), "counted once");
    assertEquals(2, number(db, "select count(*) from audit where event_id = 'evt_3'"), "audit, not recorded, ran again");
  }

  @Test
  void aFirstAttemptRecordsItsHandlersInTheStatementThatSettlesAndCommits() {
    runtime.close();
    StatementRecorder recorder = new StatementRecorder(db.dataSource());
    runtime = WebhookRuntime.builder().dataSource(recorder.dataSource())
        .provider(new TestHookAdapter(), Secrets.of(InboxFixture.SECRET))
        .handlers(new CountingHandler("a", null), new Audit()).build();
    runtime.start();
    receive(runtime, "evt_4", "job.count", "{}");
    awaitStatus(db, "evt_4", "done");
    List<String> recording = recorder.drain().stream().filter(sql -> sql.contains("handler_applied")).toList();
    assertEquals(1, recording.size(), "one statement records the handlers: " + recording);
    if (TestDatabase.citus()) {
      // on Citus the settle is two statements, each routed to the event's shard (docs/citus.md): the
      // fenced update, then this insert naming the event's key in each row
      assertTrue(recording.get(0).startsWith("insert into \"hookledger\".handler_applied (provider, scope, event_id,"
          + " handler) values ('testhook', '', 'evt_4', "), "the settle's second statement: " + recording.get(0));
    } else {
      assertTrue(recording.get(0).contains("with settled as (update") && recording.get(0).endsWith("; commit"),
          "the settle's, with the COMMIT: " + recording.get(0));
    }
    assertEquals(2, number(db, "select count(*) from hookledger.handler_applied where event_id = 'evt_4'"));
  }

  /**
   * Puts a settled event back in the queue, as an operator's reset, a backfill's failure or a future
   * path may, and waits until the workers settled it again.
   */
  private void settleAgain(String id) {
    db.execute("update hookledger.event set status = 'pending', available_at = now(), settled_at = null"
        + " where event_id = '" + id + "'");
    Await.until(id + " settled again", () -> number(db, "select count(*) from hookledger.event where event_id = ?"
        + " and status = 'done' and attempts = 2", id) == 1);
  }

  /** A second handler of the same type, named explicitly. */
  static final class Audit {
    @OnEvent(value = "job.count", name = "audit")
    void audit(EventContext context, DSLContext tx) {
      tx.execute("insert into audit values (?)", context.event().eventId());
    }
  }
}
