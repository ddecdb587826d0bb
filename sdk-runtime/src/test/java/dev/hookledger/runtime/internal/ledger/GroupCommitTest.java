package dev.hookledger.runtime.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Group commit against PostgreSQL: what one batch decides for copies of one event, a batch whose
 * commit fails, a full queue, and concurrent batches holding the same ids in opposite orders. The
 * writer is held at its first connection by a {@link WriterGate}, so that the requests sent
 * meanwhile queue up and are written together in the next batch.
 */
class GroupCommitTest {
  /**
   * Put before a fixture's trigger on the event table: Citus makes a trigger on a distributed table
   * only when told its function is safe, as the ledger's distribution script does for its own.
   */
  private static final String UNSAFE_TRIGGERS = TestDatabase.citus() ? "set citus.enable_unsafe_triggers = on; " : "";
  static final String SCHEMA = "hookledger";

  TestDatabase.Database db;
  WriterGate gate;
  GroupCommit writer;
  ExecutorService senders = Executors.newCachedThreadPool();

  @BeforeEach
  void migrate() {
    db = TestDatabase.create();
    SchemaMigrator.migrate(LedgerDsl.on(db.dataSource()), SCHEMA);
    gate = new WriterGate(db.dataSource());
  }

  @AfterEach
  void stop() {
    gate.open();
    if (writer != null) {
      writer.close();
    }
    senders.shutdownNow();
  }

  @Test
  void copiesOfOneEventInOneBatchMakeOneRowOneAcceptedTheOtherDuplicateAndCountOneDuplicate() throws Exception {
    start(1, 100);
    Future<Boolean> first = send(row("evt_first"));
    gate.awaitHeld();
    List<Future<Boolean>> copies = List.of(send(row("evt_twice")), send(row("evt_twice")));
    Future<Boolean> other = send(row("evt_other"));
    Await.until("three requests queue behind the first batch", () -> writer.waiting() == 3);

    gate.open();

    assertTrue(first.get(10, TimeUnit.SECONDS));
    assertTrue(other.get(10, TimeUnit.SECONDS));
    List<Boolean> answers = new ArrayList<>(List.of(copies.get(0).get(), copies.get(1).get()));
    Collections.sort(answers);
    assertEquals(List.of(false, true), answers, "one copy accepted, the other a duplicate");
    assertEquals(2, writer.batchesCommitted(), "the first alone, then the three queued behind it together");
    assertEquals(3, LedgerRows.events(db.dataSource(), SCHEMA));
    assertEquals(1, ((Number) LedgerRows.event(db.dataSource(), SCHEMA, "evt_twice").orElseThrow().get("duplicates")).intValue());
    assertEquals(0, ((Number) LedgerRows.event(db.dataSource(), SCHEMA, "evt_other").orElseThrow().get("duplicates")).intValue());
  }

  @Test
  void aBatchWhoseCommitFailsFailsEveryRequestInItAndWritesNothingOfIt() throws Exception {
    // a deferred constraint that fails at commit, for a row the insert itself accepts
    db.execute("create function hookledger.refuse() returns trigger language plpgsql as $$"
        + " begin raise exception 'refused at commit'; end $$");
    db.execute(UNSAFE_TRIGGERS + "create constraint trigger refuse_poison after insert on hookledger.event deferrable initially deferred"
        + " for each row when (new.event_id = 'evt_poison') execute function hookledger.refuse()");
    start(1, 100);
    Future<Boolean> first = send(row("evt_alone"));
    gate.awaitHeld();
    List<Future<Boolean>> batch = List.of(send(row("evt_a")), send(row("evt_poison")), send(row("evt_b")));
    Await.until("three requests queue behind the first batch", () -> writer.waiting() == 3);

    gate.open();

    assertTrue(first.get(10, TimeUnit.SECONDS));
    for (Future<Boolean> f : batch) {
      ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
      assertTrue(e.getCause() instanceof LedgerUnavailableException, e.getCause().toString());
    }
    assertEquals(1, LedgerRows.events(db.dataSource(), SCHEMA), "only the first batch's row");
    assertTrue(LedgerRows.event(db.dataSource(), SCHEMA, "evt_a").isEmpty());

    // the provider's retries are then recorded
    assertTrue(writer.write(row("evt_a"), GroupCommit.AfterWrite.NOTHING));
  }

  @Test
  void aRowTheDatabaseRefusesForItsDataFailsAloneAndTheRestOfItsBatchIsWritten() throws Exception {
    // an id past what a B-tree entry holds (about 2.7 KB, after compression, so not a repeated
    // letter): before, its whole batch was answered 503
    byte[] noise = new byte[3000];
    new java.util.Random(19).nextBytes(noise);
    String poison = "evt_" + java.util.Base64.getEncoder().encodeToString(noise);
    start(1, 100);
    Future<Boolean> first = send(row("evt_alone"));
    gate.awaitHeld();
    List<Future<Boolean>> good = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      good.add(send(row("evt_good_" + i)));
    }
    Future<Boolean> bad = send(row(poison));
    for (int i = 6; i < 12; i++) {
      good.add(send(row("evt_good_" + i)));
    }
    Await.until("thirteen requests queue behind the first batch", () -> writer.waiting() == 13);

    gate.open();

    assertTrue(first.get(10, TimeUnit.SECONDS));
    for (Future<Boolean> f : good) {
      assertTrue(f.get(10, TimeUnit.SECONDS), "every good row of the batch is written");
    }
    ExecutionException e = assertThrows(ExecutionException.class, () -> bad.get(10, TimeUnit.SECONDS));
    assertTrue(e.getCause() instanceof LedgerUnavailableException, e.getCause().toString());
    assertEquals(13, LedgerRows.events(db.dataSource(), SCHEMA), "all but the poison row");
  }

  @Test
  void aBatchIsBoundedByBytesAsWellAsRows() throws Exception {
    start(1, 100, 2_500);
    Future<Boolean> first = send(row("evt_alone"));
    gate.awaitHeld();
    List<Future<Boolean>> large = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      large.add(send(row("evt_large_" + i, 1_000)));
    }
    Await.until("four requests queue behind the first batch", () -> writer.waiting() == 4);

    gate.open();

    for (Future<Boolean> f : large) {
      assertTrue(f.get(10, TimeUnit.SECONDS));
    }
    assertTrue(first.get(10, TimeUnit.SECONDS));
    assertEquals(3, writer.batchesCommitted(), "the first alone, then two rows of 1,000 bytes a batch under 2,500");
  }

  @Test
  void aBatchWhoseDuplicateCountFailsAnswersItsNewRowsAndFailsOnlyItsDuplicates() throws Exception {
    db.execute("create function hookledger.refuse_count() returns trigger language plpgsql as $$"
        + " begin raise exception 'no count today'; end $$");
    db.execute(UNSAFE_TRIGGERS + "create trigger refuse_count before update of duplicates on hookledger.event"
        + " for each row execute function hookledger.refuse_count()");
    start(1, 100);
    Future<Boolean> first = send(row("evt_known"));
    gate.awaitHeld();
    Future<Boolean> copy = send(row("evt_known"));
    Future<Boolean> fresh = send(row("evt_new"));
    Await.until("two requests queue behind the first batch", () -> writer.waiting() == 2);

    gate.open();

    assertTrue(first.get(10, TimeUnit.SECONDS));
    assertTrue(fresh.get(10, TimeUnit.SECONDS), "the new row of the batch is written and answered");
    ExecutionException e = assertThrows(ExecutionException.class, () -> copy.get(10, TimeUnit.SECONDS));
    assertEquals("cannot count the redelivery of testhook event evt_known in the ledger: BatchUpdateException (SQL state P0001)",
        e.getCause().getMessage());
    assertEquals(2, LedgerRows.events(db.dataSource(), SCHEMA));
    assertEquals(0, ((Number) LedgerRows.event(db.dataSource(), SCHEMA, "evt_known").orElseThrow().get("duplicates")).intValue());

    // the provider's retry of that 503 is counted once the database counts again
    db.execute(UNSAFE_TRIGGERS + "drop trigger refuse_count on hookledger.event");
    assertFalse(writer.write(row("evt_known"), GroupCommit.AfterWrite.NOTHING));
    assertEquals(1, ((Number) LedgerRows.event(db.dataSource(), SCHEMA, "evt_known").orElseThrow().get("duplicates")).intValue());
  }

  @Test
  void aFullQueueRefusesAtOnceAndTellsTheRequestsHandOffItFailed() throws Exception {
    start(1, 1);
    Future<Boolean> first = send(row("evt_1"));
    gate.awaitHeld();
    Future<Boolean> queued = send(row("evt_2"));
    Await.until("the queue is full", () -> writer.waiting() == 1);
    AtomicInteger failed = new AtomicInteger();

    long start = System.nanoTime();
    LedgerUnavailableException e = assertThrows(LedgerUnavailableException.class, () -> writer.write(row("evt_3"),
        new GroupCommit.AfterWrite() {
          @Override
          public void failed() {
            failed.incrementAndGet();
          }
        }));

    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(1), "refused without waiting");
    assertEquals("cannot record testhook event evt_3: the ledger writers are saturated (1 deliveries waiting for a commit)",
        e.getMessage());
    assertEquals(1, failed.get());
    gate.open();
    assertTrue(first.get(10, TimeUnit.SECONDS));
    assertTrue(queued.get(10, TimeUnit.SECONDS));
    assertFalse(LedgerRows.event(db.dataSource(), SCHEMA, "evt_3").isPresent());
  }

  @Test
  void concurrentBatchesHoldingTheSameIdsInAnyOrderNeitherDeadlockNorLoseACount() throws Exception {
    gate.open();
    start(4, 10_000);
    int keys = 20;
    int perSender = 100;
    int sendersCount = 8;
    List<Future<Integer>> results = new ArrayList<>();
    for (int s = 0; s < sendersCount; s++) {
      Random random = new Random(s);
      results.add(senders.submit(() -> {
        int accepted = 0;
        for (int i = 0; i < perSender; i++) {
          if (writer.write(row("evt_" + random.nextInt(keys)), GroupCommit.AfterWrite.NOTHING)) {
            accepted++;
          }
        }
        return accepted;
      }));
    }
    int accepted = 0;
    // on Citus each batch's statements on the 20 contended rows pay the coordinator's round trips while
    // holding their locks: the case took 54 s there at load average 10-13, 14 s on plain PostgreSQL
    long wait = TestDatabase.citus() ? 240 : 60;
    for (Future<Integer> r : results) {
      accepted += r.get(wait, TimeUnit.SECONDS);
    }

    assertEquals(keys, accepted, "each key accepted once");
    assertEquals(keys, LedgerRows.events(db.dataSource(), SCHEMA));
    assertEquals(sendersCount * perSender - keys,
        LedgerRows.number(db.dataSource(), "select sum(duplicates) from hookledger.event"), "every duplicate counted");
    assertTrue(writer.batchesCommitted() < sendersCount * perSender, "some requests shared a commit");
  }

  /**
   * On a ledger distributed by scope (Citus), a statement holding several scopes' rows spans their
   * shards and commits in two phases across workers: there each scope's rows of a batch are a
   * statement and a transaction of their own, so a row refused at commit fails its scope's rows only.
   */
  @Test
  void whereOneStatementHoldsOneScopeABatchIsWrittenScopeByScopeEachInItsOwnTransaction() throws Exception {
    db.execute("create function hookledger.refuse() returns trigger language plpgsql as $$"
        + " begin raise exception 'refused at commit'; end $$");
    db.execute(UNSAFE_TRIGGERS + "create constraint trigger refuse_poison after insert on hookledger.event deferrable initially deferred"
        + " for each row when (new.event_id = 'evt_poison') execute function hookledger.refuse()");
    start(1, 100, Long.MAX_VALUE, true);
    Future<Boolean> first = send(row("evt_alone", "acct_a"));
    gate.awaitHeld();
    Future<Boolean> a1 = send(row("evt_a1", "acct_a"));
    Await.until("queued", () -> writer.waiting() == 1);
    Future<Boolean> b1 = send(row("evt_b1", "acct_b"));
    Await.until("queued", () -> writer.waiting() == 2);
    Future<Boolean> poison = send(row("evt_poison", "acct_b"));
    Await.until("queued", () -> writer.waiting() == 3);
    Future<Boolean> a2 = send(row("evt_a2", "acct_a"));
    Await.until("queued", () -> writer.waiting() == 4);
    Future<Boolean> c1 = send(row("evt_c1", "acct_c"));
    Await.until("five requests of three scopes queue behind the first batch", () -> writer.waiting() == 5);

    gate.open();

    for (Future<Boolean> written : List.of(first, a1, a2, c1)) {
      assertTrue(written.get(10, TimeUnit.SECONDS));
    }
    for (Future<Boolean> failed : List.of(b1, poison)) {
      ExecutionException e = assertThrows(ExecutionException.class, () -> failed.get(10, TimeUnit.SECONDS));
      assertTrue(e.getCause() instanceof LedgerUnavailableException, e.getCause().toString());
    }
    assertEquals(3, writer.batchesCommitted(), "the first alone, then acct_a's two and acct_c's one; acct_b's rolled back");
    assertEquals(4, LedgerRows.events(db.dataSource(), SCHEMA));
    assertTrue(LedgerRows.event(db.dataSource(), SCHEMA, "evt_b1").isEmpty(), "acct_b's rows share its commit");
  }

  private void start(int writers, int capacity) {
    start(writers, capacity, Long.MAX_VALUE);
  }

  private void start(int writers, int capacity, long maxBatchBytes) {
    start(writers, capacity, maxBatchBytes, false);
  }

  private void start(int writers, int capacity, long maxBatchBytes, boolean oneScopePerStatement) {
    writer = GroupCommit.of(gate, new EventTable(SCHEMA), () -> oneScopePerStatement, writers, capacity, 128,
        maxBatchBytes, Duration.ofSeconds(30), "test");
    writer.start();
  }

  private Future<Boolean> send(NewRow row) {
    return CompletableFuture.supplyAsync(() -> writer.write(row, GroupCommit.AfterWrite.NOTHING), senders);
  }

  private static NewRow row(String eventId) {
    return row(eventId, 2);
  }

  private static NewRow row(String eventId, String scope) {
    WebhookEvent event = WebhookEvent.builder().provider("testhook").scope(scope).eventId(eventId)
        .type("thing.happened").body("{}".getBytes(StandardCharsets.UTF_8)).build();
    return NewRow.waiting(event, EventSource.DELIVERY);
  }

  /** A row whose body is {@code bodyBytes} bytes of JSON. */
  private static NewRow row(String eventId, int bodyBytes) {
    String body = bodyBytes <= 2 ? "{}" : "\"" + "x".repeat(bodyBytes - 2) + "\"";
    WebhookEvent event = WebhookEvent.builder().provider("testhook").eventId(eventId).type("thing.happened")
        .body(body.getBytes(StandardCharsets.UTF_8)).build();
    return NewRow.waiting(event, EventSource.DELIVERY);
  }
}
