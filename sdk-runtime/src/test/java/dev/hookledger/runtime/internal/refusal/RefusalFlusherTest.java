package dev.hookledger.runtime.internal.refusal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.HttpHeaders;
import dev.hookledger.runtime.RefusalReason;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.RefusalCountRows;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.SteppingClock;
import dev.hookledger.runtime.testing.TestDatabase;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The flusher against real PostgreSQL, driven tick by tick (no timer), so nothing depends on timing. */
class RefusalFlusherTest {
  private final TestDatabase.Database db = TestDatabase.create();
  private final SteppingClock clock = new SteppingClock(Instant.parse("2026-12-01T03:00:00Z"));
  private final RefusalLog refusals = new RefusalLog(clock, WebhookListener.NONE);

  @Test
  void writesTheCountsOnlyWhenTheyChanged() {
    migrate("hookledger");
    RefusalFlusher flusher = flusher("hookledger");
    refuse("stripe", RefusalReason.SIGNATURE_MISMATCH);
    flusher.tick();
    assertEquals(1, refused("hookledger"));

    // a tick with nothing new writes nothing: the row someone changed meanwhile stays as it is
    sql("update hookledger.refusal_count set refused = 99");
    flusher.tick();
    assertEquals(99, refused("hookledger"));

    refuse("stripe", RefusalReason.SIGNATURE_MISMATCH);
    flusher.tick();
    assertEquals(2, refused("hookledger"), "the node's cumulative count, set, not added");
  }

  @Test
  void aProviderThatIsNotRegisteredIsWrittenAsTheUnknownBucket() {
    migrate("hookledger");
    refuse("stripe", RefusalReason.SIGNATURE_MISMATCH);
    refuse("<script>", RefusalReason.SIGNATURE_MISMATCH);
    refuse("(unknown)", RefusalReason.UNKNOWN_PROVIDER);

    flusher("hookledger").tick();

    assertEquals("(unknown):SIGNATURE_MISMATCH:1,(unknown):UNKNOWN_PROVIDER:1,stripe:SIGNATURE_MISMATCH:1",
        LedgerRows.first(db.dataSource(), "select string_agg(provider || ':' || reason || ':' || refused, ','"
            + " order by provider, reason) as rows from hookledger.refusal_count").orElseThrow().get("rows"));
  }

  @Test
  void aWriteThatFailsIsTriedAgainAtTheNextTick() {
    RefusalFlusher flusher = flusher("later");
    refuse("stripe", RefusalReason.SIGNATURE_MISMATCH);
    flusher.tick(); // no table yet: logged, not thrown

    migrate("later");
    flusher.tick();

    assertEquals(1, refused("later"));
  }

  @Test
  void rowsOfNodesThatRefusedNothingForSevenDaysAreDeleted() {
    migrate("hookledger");
    // the clock reads 2026-12-01T03:00Z: 8 and 6 days before it
    sql("insert into hookledger.refusal_count values ('gone', 'stripe', 'SIGNATURE_MISMATCH', 5, '2026-11-23T03:00:00Z'),"
        + " ('quiet', 'stripe', 'SIGNATURE_MISMATCH', 5, '2026-11-25T03:00:00Z')");

    flusher("hookledger").tick();

    assertEquals(1, LedgerRows.number(db.dataSource(), "select count(*) from hookledger.refusal_count"));
    assertEquals(1, LedgerRows.number(db.dataSource(), "select count(*) from hookledger.refusal_count where node = 'quiet'"));
  }

  @Test
  void closeWritesWhatChangedSinceTheLastTick() {
    migrate("hookledger");
    RefusalFlusher flusher = flusher("hookledger");
    flusher.start(); // its first tick is 2 s away
    refuse("stripe", RefusalReason.SIGNATURE_MISMATCH);

    flusher.close();

    assertEquals(1, refused("hookledger"));
  }

  @Test
  void closeGivesUpItsLastWriteRatherThanWaitOutThePoolsConnectionTimeoutWhenTheDatabaseIsGone() throws Exception {
    int nothingListens;
    try (ServerSocket s = new ServerSocket(0)) {
      nothingListens = s.getLocalPort();
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:postgresql://localhost:" + nothingListens + "/postgres?user=postgres");
    config.setConnectionTimeout(30_000); // HikariCP's default, as an application's pool has it
    config.setInitializationFailTimeout(-1);
    try (HikariDataSource gone = new HikariDataSource(config)) {
      RefusalFlusher flusher = new RefusalFlusher(refusals, LedgerDsl.on(gone), new RefusalCountRows("hookledger"),
          "node-1", Set.of("stripe"), clock, "test-refusals");
      flusher.start();
      refuse("stripe", RefusalReason.SIGNATURE_MISMATCH);

      long started = System.nanoTime();
      flusher.close();
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      // the last write is waited for 3 s, then interrupted (said at WARN with the counts it could not write)
      assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "close() took " + took.toMillis() + " ms");
    }
  }

  private RefusalFlusher flusher(String schema) {
    return new RefusalFlusher(refusals, LedgerDsl.on(db.dataSource()), new RefusalCountRows(schema), "node-1", Set.of("stripe"), clock,
        "test-refusals");
  }

  private void refuse(String provider, RefusalReason reason) {
    refusals.refused(provider, reason, RequestFacts.of("10.0.0.9", "/webhooks/" + provider, HttpHeaders.of(Map.of())));
  }

  private void migrate(String schema) {
    InboxAdmin.builder(db.dataSource()).schema(schema).build().migrate();
  }

  private long refused(String schema) {
    return LedgerRows.number(db.dataSource(), "select coalesce(sum(refused), 0) from \"" + schema + "\".refusal_count");
  }

  private void sql(String statement) {
    LedgerDsl.on(db.dataSource()).execute(statement);
  }
}
