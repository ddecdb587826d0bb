package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.time.Duration;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/** One bad event never blocks the good ones behind it: neither one that always fails nor one that never ends. */
class PoisonEventTest {

  @Test
  void fiftyGoodEventsBehindAFailingAndAHangingOneAllFinish() {
    TestDatabase.Database db = InboxFixture.database();
    Gate gate = new Gate();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), new Handlers(gate)).workers(2)
        .retryPolicy(RetryPolicy.builder().firstDelay(Duration.ofMillis(50)).factor(1).maxAttempts(3).jitter(0).build())
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
