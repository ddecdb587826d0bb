package dev.hookledger.runtime.internal.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * Each attempt schedules one alarm at its deadline; an attempt that finishes in time cancels it, and
 * a cancelled alarm must leave the watchdog's queue at once: with a deadline of minutes and thousands
 * of attempts a minute, alarms left queued until they would have fired are a leak that grows with
 * throughput.
 */
class HandlerDeadlineTest {

  @Test
  void attemptsThatFinishInTimeLeaveNoAlarmQueued() throws Exception {
    WebhookEvent event = WebhookEvent.builder().provider("testhook").eventId("evt_alarm").type("t")
        .body(new byte[] {'{', '}'}).build();
    try (Connection c = TestDatabase.create().dataSource().getConnection();
        HandlerDeadline deadline = new HandlerDeadline(Duration.ofMinutes(10), "deadline-test")) {
      DSLContext tx = DSL.using(c, SQLDialect.POSTGRES);
      for (int i = 0; i < 1_000; i++) {
        int attempt = i;
        assertEquals(attempt, deadline.run(tx, event, () -> attempt));
      }

      assertEquals(0, deadline.queuedAlarms());
    }
  }
}
