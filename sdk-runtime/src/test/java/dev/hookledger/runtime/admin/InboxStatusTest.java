package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InboxStatusTest {
  private final LedgerFixture ledger = new LedgerFixture();
  private final InboxAdmin admin = ledger.admin();

  @Test
  void countsEventsPerProviderAndStatusWithDuplicatesAndOldestWaitingAge() {
    ledger.row("stripe", "evt_1").status("pending").receivedAt(NOW.minus(Duration.ofMinutes(5))).insert();
    ledger.row("stripe", "evt_2").status("processing").receivedAt(NOW.minus(Duration.ofHours(2))).insert();
    ledger.row("stripe", "evt_3").status("done").duplicates(3).settledAt(NOW).insert();
    ledger.row("stripe", "evt_4").status("done").duplicates(1).settledAt(NOW).insert();
    ledger.row("github", "g1").status("dead").attempts(8).receivedAt(NOW.minus(Duration.ofDays(9))).insert();
    ledger.row("github", "g2").status("ignored").duplicates(2).settledAt(NOW).insert();

    InboxStatus status = admin.status();

    assertEquals(List.of(
        new StatusCount("github", EventStatus.IGNORED, 1, 2),
        new StatusCount("github", EventStatus.DEAD, 1, 0),
        new StatusCount("stripe", EventStatus.PENDING, 1, 0),
        new StatusCount("stripe", EventStatus.PROCESSING, 1, 0),
        new StatusCount("stripe", EventStatus.DONE, 2, 4)), status.counts());
    assertEquals(NOW, status.asOf());
    // the dead event is older but not waiting: the age is the processing one's
    assertEquals(Optional.of(Duration.ofHours(2)), status.oldestWaitingAge());
    assertEquals(2, status.waiting());
    assertEquals(1, status.dead());
    assertEquals(6, status.total());
    assertEquals(6, status.duplicates());
  }

  @Test
  void emptyLedgerHasNoCountsAndNoOldestAge() {
    InboxStatus status = admin.status();

    assertEquals(List.of(), status.counts());
    assertEquals(Optional.empty(), status.oldestWaitingAge());
    assertEquals(0, status.duplicates());
  }

  @Test
  void backlogCountsWaitingAndDeadOnly() {
    ledger.row("stripe", "evt_1").status("pending").receivedAt(NOW.minus(Duration.ofSeconds(90))).insert();
    ledger.row("stripe", "evt_2").status("dead").insert();
    ledger.row("stripe", "evt_3").status("done").settledAt(NOW).insert();

    assertEquals(new Backlog(1, 1, Duration.ofSeconds(90), 1), admin.backlog(), "due long before the database's now(): stuck");
    ledger.sql.execute("UPDATE hookledger.event SET status = 'done', settled_at = now() WHERE event_id = 'evt_1'");
    assertEquals(new Backlog(0, 1, Duration.ZERO), admin.backlog());
  }

  @Test
  void missingLedgerTablesSayToRunMigrate() {
    InboxAdmin bare = InboxAdmin.builder(TestDatabase.create().dataSource()).build();

    LedgerUnavailableException e = assertThrows(LedgerUnavailableException.class, bare::status);
    assertEquals("the ledger tables do not exist in schema hookledger of this database; run migrate first",
        e.getMessage());
  }

  @Test
  void statusReadsTheConfiguredSchema() {
    LedgerFixture other = new LedgerFixture("billing_inbox");
    other.row("shopify", "e1").scope("shop.myshopify.com").insert();

    assertEquals(1, other.admin().status().total());
    assertEquals("billing_inbox", other.admin().schema());
    assertEquals(0, ledger.admin().status().total(), "the default schema is another ledger");
  }
}
