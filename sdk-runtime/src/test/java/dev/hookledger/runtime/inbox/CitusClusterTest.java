package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.SECRET;
import static dev.hookledger.runtime.inbox.InboxFixture.SIGNER;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.EventContext;
import dev.hookledger.InboundDelivery;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.admin.BackfillRequest;
import dev.hookledger.runtime.admin.BackfillStatus;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.RetrySelection;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LeaseClaimer;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.spi.ProviderAdapter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The ledger on a Citus cluster with its shards on two workers ({@code src/test/citus/citus-cluster.sh}:
 * the {@code citus} profile's default layout). There a trigger on a worker's shard may write only
 * that worker's shards: before status_count was distributed by scope beside the events, every
 * delivery was received and none settled ("cannot execute a distributed query from a query on a
 * shard", from V2's count trigger writing a reference table), and the ordering guard's reference
 * table made each event with an entity a transaction on every node.
 */
@Tag("citus")
@EnabledIf("onWorkers")
class CitusClusterTest {
  /** The operator's reads span every shard: more than the 2 s default on this shared, loaded machine. */
  private static final Duration LOADED = Duration.ofSeconds(30);
  private static final int SCOPES = 8;

  static boolean onWorkers() {
    return TestDatabase.citus() && !TestDatabase.citusWorkers().isEmpty();
  }

  @Test
  void eventsOfManyScopesSettleOnTheWorkersWithRetriesDeadLettersBulkRetryPruneAndExactCounts() {
    TestDatabase.Database db = clusterDatabase();
    assertEquals(TestDatabase.citusWorkers().size(), number(db, "select count(distinct p.nodeport) from pg_dist_placement pl"
        + " join pg_dist_node p on p.groupid = pl.groupid join pg_dist_shard s on s.shardid = pl.shardid"
        + " where s.logicalrelid = 'hookledger.event'::regclass and p.groupid <> 0"), "the event shards are on the workers");
    assertEquals(0, number(db, "select count(*) from pg_dist_placement pl join pg_dist_shard s on s.shardid = pl.shardid"
        + " where s.logicalrelid = 'hookledger.event'::regclass and pl.groupid = 0"), "none on the coordinator");

    try (WebhookRuntime node = builder(db).build()) {
      node.start();
      for (int i = 0; i < 4 * SCOPES; i++) {
        // a quarter fails its first attempt; each an entity's version, checked by the ordering guard
        receive(node, scope(i), "evt_" + i, "job.scoped", i % 4 == 0 ? "{\"failFirst\": true}" : "{}",
            "thing:" + i, i);
      }
      for (int i = 0; i < SCOPES; i++) {
        receive(node, scope(i), "ign_" + i, "job.nobody", "{}", null, 0);
      }
      receive(node, scope(0), "die_0", "job.dies", "{}", null, 0);
      receive(node, scope(1), "die_1", "job.dies", "{}", null, 0);
      for (int i = 0; i < 4 * SCOPES; i++) {
        InboxFixture.awaitStatus(db, "evt_" + i, "done");
      }
      InboxFixture.awaitStatus(db, "die_0", "dead");
      InboxFixture.awaitStatus(db, "die_1", "dead");
      InboxFixture.awaitStatus(db, "ign_" + (SCOPES - 1), "ignored");

      assertEquals(4 * SCOPES, number(db, "select count(*) from scoped_effect where n = 1"), "each effect once");
      assertEquals(SCOPES, number(db, "select count(*) from hookledger.event where type = 'job.scoped' and attempts = 2"));
      assertEquals(0, number(db, "select count(*) from hookledger.entity_version v where not exists (select 1"
          + " from hookledger.event e where e.scope = v.scope and e.event_id = v.event_id)"),
          "each version kept under its event's scope");
      assertEquals(4L * SCOPES, number(db, "select count(*) from hookledger.entity_version"));
      assertCounts(db, Map.of(EventStatus.DONE, 4L * SCOPES, EventStatus.IGNORED, (long) SCOPES, EventStatus.DEAD, 2L));

      // bulk retry by a filter: no SELECT ... FOR UPDATE across shards (refused by Citus even on one node)
      InboxAdmin admin = InboxAdmin.builder(db.dataSource()).readTimeout(LOADED).build();
      RetrySelection dead = RetrySelection.dead().type("job.dies");
      assertEquals(2, admin.retryCount(dead));
      assertEquals(2, admin.retry(dead, 2));
      // set back to pending with a new budget (attempts 0): attempted twice more, dead again
      assertEquals(0, number(db, "select count(*) from hookledger.event where status = 'dead'"));
      Await.until("the retried dead events dead again", Duration.ofSeconds(60),
          () -> number(db, "select count(*) from hookledger.event where status = 'dead' and attempts = 2") == 2);
      assertCounts(db, Map.of(EventStatus.DONE, 4L * SCOPES, EventStatus.IGNORED, (long) SCOPES, EventStatus.DEAD, 2L));

      // prune: the settled rows of every shard go, their counts with them
      assertEquals(5L * SCOPES, admin.prune(Duration.ofNanos(1), true).deleted());
      assertCounts(db, Map.of(EventStatus.DEAD, 2L));
      assertEquals(2, number(db, "select count(*) from hookledger.event"));
    }
  }

  @Test
  void eachEventsSettleStaysOnItsWorkerAndAHandlerThatWritesAnotherScopeIsATwoPhaseCommit() throws SQLException {
    TestDatabase.Database db = clusterDatabase();
    // two scopes whose shards are on different workers
    String here = scope(0);
    String there = null;
    for (int i = 1; i < 64 && there == null; i++) {
      if (!workerOf(db, "acct_" + i).equals(workerOf(db, here))) {
        there = "acct_" + i;
      }
    }
    assertNotEquals(null, there, "a scope on the other worker");
    try (WebhookRuntime receiver = builder(db).inbox(i -> i.workers(0)).build()) {
      receiver.start();
      for (int i = 0; i < 2 * SCOPES; i++) {
        receive(receiver, scope(i), "evt_" + i, "job.scoped", "{}", "thing:" + i, i);
      }
      receive(receiver, here, "cross_0", "job.cross", "{\"to\": \"" + there + "\"}", null, 0);
    }
    List<PGSimpleDataSource> workers = workerDatabases(db);
    db.execute("create extension if not exists pg_stat_statements"); // Citus makes it on the workers too
    for (PGSimpleDataSource w : workers) {
      execute(w, "select pg_stat_statements_reset()");
    }

    try (WebhookRuntime node = builder(db).build()) {
      node.start();
      for (int i = 0; i < 2 * SCOPES; i++) {
        InboxFixture.awaitStatus(db, "evt_" + i, "done");
      }
      InboxFixture.awaitStatus(db, "cross_0", "done");
      // before the runtime closes: giving leases back is one statement over the scopes held
      long prepared = 0;
      for (PGSimpleDataSource w : workers) {
        prepared += preparedTransactions(w);
      }
      // A transaction that writes two nodes is committed in two phases, prepared on each: the cross
      // event's, on its two workers, and any background one of the runtime in the window. Before the
      // settle went as statements routed to one shard, every settle prepared on both workers (38 for
      // these 17 events); since, 4 were seen here.
      assertTrue(prepared >= 2, "the cross event's two-phase commit is seen: " + prepared);
      assertTrue(prepared < 2 * SCOPES, "not one per settled event: " + prepared);
    }
    assertEquals(2L * SCOPES + 1, number(db, "select count(*) from scoped_effect where n = 1"));
    assertEquals(1, event(db, "cross_0").get("attempts"));
  }

  /**
   * The receive's group commit writes a batch of several scopes' deliveries scope by scope: each
   * insert goes to its scope's shard, and no receive commits in two phases. Before, one
   * {@code INSERT} held the whole batch: it spanned the shards of its scopes and, with rows on both
   * workers, was a two-phase commit (about one settled event in five in the bench on this layout).
   */
  @Test
  void concurrentDeliveriesOfManyScopesAreInsertedEachOnItsScopesShardWithoutTwoPhaseCommits() throws Exception {
    TestDatabase.Database db = clusterDatabase();
    String name = ((PGSimpleDataSource) db.dataSource()).getDatabaseName();
    db.execute("create extension if not exists pg_stat_statements"); // Citus makes it on the workers too
    db.execute("alter database " + name + " set citus.stat_statements_track = 'all'"); // the runtimes' sessions
    List<PGSimpleDataSource> workers = workerDatabases(db);
    int senders = 8;
    int each = 12;
    try (WebhookRuntime receiver = builder(db).inbox(i -> i.workers(0)).receive(r -> r.ledgerWriters(1)).build()) {
      receiver.start();
      receive(receiver, scope(0), "warm_0", "job.nobody", "{}", null, 0); // the layout read before counting
      resetStatements(db, workers);
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(senders);
      try {
        List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
        for (int t = 0; t < senders; t++) {
          int sender = t;
          sent.add(pool.submit(() -> {
            for (int i = 0; i < each; i++) {
              receive(receiver, scope(sender + i), "evt_" + sender + "_" + i, "job.nobody", "{}", null, 0);
            }
          }));
        }
        for (java.util.concurrent.Future<?> f : sent) {
          f.get(5, java.util.concurrent.TimeUnit.MINUTES);
        }
      } finally {
        pool.shutdownNow();
      }
      String thisDb = "dbid = (select oid from pg_database where datname = current_database())";
      List<String> unrouted = LedgerDsl.on(db.dataSource()).fetch("select executor || ' ' || calls || ': ' || query"
          + " from citus_stat_statements where " + thisDb + " and query ~* '^\\s*insert into \"?hookledger\"?\\.\"?event\\M'"
          + " and partition_key is null").getValues(0, String.class);
      // whatever batches the timing made: how many rows shared a statement is not asserted here (at a load
      // average of 7 no two concurrent deliveries of one scope met in a batch); GroupCommitTest holds the
      // writer to queue a batch of three scopes and checks its split on the cluster
      assertEquals(List.of(), unrouted, "receive inserts without one scope's partition key");
    }
    assertEquals(senders * each + 1, number(db, "select count(*) from hookledger.event"));
  }

  /**
   * Every statement of one scope's events, from their claim to their settle and through a backfill of
   * them, goes to that scope's shard: Citus's statistics on the coordinator name the scope as each
   * write's partition key and no statement as planned through the coordinator ({@code insert-select}),
   * the other worker sees no write of the ledger's, and neither worker prepares a transaction (a
   * transaction that writes two nodes commits in two phases). Before, a backfill's record of its
   * handlers ({@code INSERT ... SELECT unnest(?)}) ran through the coordinator, and its cursor, in the
   * {@code backfill} reference table, made each visited event's transaction write every node.
   */
  @Test
  void everyStatementOfOneScopesEventsAndOfTheirBackfillGoesToThatScopesShardOnItsWorker() throws SQLException {
    TestDatabase.Database db = clusterDatabase();
    String scope = scope(0);
    String name = ((PGSimpleDataSource) db.dataSource()).getDatabaseName();
    db.execute("create extension if not exists pg_stat_statements"); // Citus makes it on the workers too
    db.execute("alter database " + name + " set citus.stat_statements_track = 'all'"); // the runtimes' sessions
    List<PGSimpleDataSource> workers = workerDatabases(db);
    PGSimpleDataSource home = null;
    PGSimpleDataSource other = null;
    for (PGSimpleDataSource w : workers) {
      if (workerOf(db, scope).equals(w.getServerNames()[0] + ":" + w.getPortNumbers()[0])) {
        home = w;
      } else {
        other = w;
      }
    }
    assertNotEquals(null, home, "the scope's worker");
    markWriters(db, home, scope);

    resetStatements(db, workers);
    try (WebhookRuntime node = builder(db).build()) {
      node.start();
      for (int i = 0; i < 8; i++) { // two fail their first attempt; each an entity version for the guard
        receive(node, scope, "evt_" + i, "job.scoped", i % 4 == 0 ? "{\"failFirst\": true}" : "{}", "thing:" + i, i);
      }
      receive(node, scope, "ign_0", "job.nobody", "{}", null, 0);
      receive(node, scope, "die_0", "job.dies", "{}", null, 0);
      for (int i = 0; i < 8; i++) {
        InboxFixture.awaitStatus(db, "evt_" + i, "done");
      }
      InboxFixture.awaitStatus(db, "die_0", "dead");
      assertRoutedTo(db, scope, home, other);
    }

    resetStatements(db, workers);
    InboxAdmin admin = InboxAdmin.builder(db.dataSource()).readTimeout(LOADED).build();
    try (WebhookRuntime node = builder(db).handlers(new ScopedBackfill()).build()) {
      node.start();
      long id = admin.startBackfill(BackfillRequest.builder(ScopedBackfill.NAME).build()).id();
      Await.until("backfill " + id + " done", Duration.ofSeconds(120),
          () -> admin.backfill(id).orElseThrow().status() == BackfillStatus.DONE);
      assertEquals(8, admin.backfill(id).orElseThrow().applied());
      assertRoutedTo(db, scope, home, other);
    }
    assertEquals(8, number(db, "select count(*) from scoped_effect where n = 2"), "each event's handler, then its backfill");
  }

  /**
   * After a bulk retry a claim on Citus found its scopes by grouping every due row by scope, on every
   * poll: a million rows read to claim a few dozen. It now reads the {@value LeaseClaimer#DUE_SCOPES_READ}
   * due longest on each shard, in the waiting index's order, and still claims the longest due first.
   */
  @Test
  void aClaimFindsItsScopesAmongTheRowsDueLongestWithoutReadingEveryDueRow() {
    TestDatabase.Database db = clusterDatabase();
    int rows = 12 * LeaseClaimer.DUE_SCOPES_READ;
    // as a bulk retry leaves them: every row due, spread over four scopes (on one or both workers)
    db.execute("insert into hookledger.event (provider, scope, event_id, type, body, status, received_at, available_at)"
        + " select 'testhook', 'scope-' || (i % 4), 'bulk_' || i, 'job.scoped', '\\x7b7d', 'pending', now(),"
        + " now() - i * interval '1 millisecond' from generate_series(1, " + rows + ") i");
    db.execute("analyze hookledger.event");
    DSLContext dsl = LedgerDsl.on(db.dataSource());

    String sql = LeaseClaimer.dueScopesSql(new EventTable("hookledger"));
    String plan = dsl.transactionResult(cfg -> {
      cfg.dsl().execute("set local citus.explain_all_tasks = on");
      return String.join("\n", cfg.dsl().fetch("explain (analyze, costs off, timing off, summary off) " + sql)
          .getValues(0, String.class));
    });
    Matcher read = SHARD_READ.matcher(plan);
    int reads = 0;
    while (read.find()) {
      reads++;
      assertTrue(Integer.parseInt(read.group(1)) <= LeaseClaimer.DUE_SCOPES_READ, "a shard read more rows:\n" + plan);
    }
    assertTrue(reads >= 2, "each shard's read of its due rows:\n" + plan);

    LeaseClaimer.Claimed claimed = new LeaseClaimer(dsl, new EventTable("hookledger"))
        .claim("test-node", Duration.ofMinutes(1), 16, 10, Long.MAX_VALUE);
    // the longest due is bulk_12000, of scope-0; its scope's next 15 follow, every fourth
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      expected.add("bulk_" + (rows - 4 * i));
    }
    assertEquals(expected.stream().sorted().toList(),
        claimed.leases().stream().map(l -> l.key().eventId()).sorted().toList());
  }

  /** A scan of an event shard in a task's plan, and its actual rows (after its filter, if any). */
  private static final Pattern SHARD_READ = Pattern.compile(
      "(?:Index Scan|Index Only Scan|Seq Scan|Bitmap Heap Scan)[^\\n]* on event_[0-9]+[^\\n]*actual rows=([0-9]+)");

  /** The statements' statistics, from now: Citus's on the coordinator, PostgreSQL's on the workers. */
  private static void resetStatements(TestDatabase.Database db, List<PGSimpleDataSource> workers) throws SQLException {
    db.execute("select citus_stat_statements_reset()");
    for (PGSimpleDataSource w : workers) {
      execute(w, "select pg_stat_statements_reset()");
    }
  }

  /** A write, or a read that locks rows, as PostgreSQL's statistics keep its text. */
  private static final String WRITES = "(^|\\s)(insert|update|delete)\\s|for (no key )?update|for share";
  /** The ledger's tables on an event's path, and the handlers' own. */
  private static final String EVENT_PATH = "\\m(event|attempt|handler_applied|entity_version|status_count|effect"
      + "|effect_attempt|scoped_effect)\\M";
  /** Their shards, as the workers' statistics name them. */
  private static final String SHARDS = "\\m(event|attempt|handler_applied|entity_version|status_count|effect"
      + "|effect_attempt|scoped_effect)_[0-9]+\\M";

  /**
   * Since {@link #resetStatements}: each write on an event's path went to {@code scope}'s shard (its
   * partition key), nothing through the coordinator's {@code insert-select}, no write of the ledger's
   * to {@code other}, and no two-phase commit on either worker.
   */
  private static void assertRoutedTo(TestDatabase.Database db, String scope, PGSimpleDataSource home,
      PGSimpleDataSource other) throws SQLException {
    String thisDb = "dbid = (select oid from pg_database where datname = current_database())";
    DSLContext coordinator = LedgerDsl.on(db.dataSource());
    List<String> unrouted = coordinator.fetch("select executor || ' ' || coalesce(partition_key, '-') || ' ' || calls"
        + " || ': ' || query from citus_stat_statements where " + thisDb + " and (executor <> 'adaptive'"
        + " or (query ~* ? and query ~* ? and partition_key is distinct from ?))", WRITES, EVENT_PATH, scope)
        .getValues(0, String.class);
    assertEquals(List.of(), unrouted, "statements on an event's path not routed to the scope's shard");
    assertTrue(number(db, "select coalesce(sum(calls), 0) from citus_stat_statements where " + thisDb
        + " and partition_key = ?", scope) > 0, "the scope's statements were counted");
    assertEquals(List.of(), statements(other, thisDb + " and query ~* '" + WRITES + "' and query ~* '" + SHARDS + "'"),
        "the other worker's writes of an event's tables");
    assertTrue(!statements(home, thisDb + " and query ~* '" + WRITES + "' and query ~ 'hookledger\\.event_'").isEmpty(),
        "the scope's worker wrote its events");
    try (Connection c = home.getConnection(); Statement s = c.createStatement();
         ResultSet r = s.executeQuery("select (select count(distinct xid) from written where kind = 'shard'),"
             + " (select count(*) from (select xid from written where kind = 'shard'"
             + " intersect select xid from written where kind = 'reference') both_kinds)")) {
      r.next();
      assertTrue(r.getLong(1) > 0, "transactions wrote the scope's shards");
      assertEquals(0, r.getLong(2), "transactions that wrote the scope's shards and a reference table");
    }
    execute(home, "truncate written");
  }

  /**
   * On {@code scope}'s worker, a trigger on each of its shards (the ledger's distributed tables and the
   * handlers' {@code scoped_effect}) and on each reference table's copy records the transactions that
   * write it in {@code written}.
   */
  private static void markWriters(TestDatabase.Database db, PGSimpleDataSource home, String scope) throws SQLException {
    DSLContext coordinator = LedgerDsl.on(db.dataSource());
    List<String> shards = new ArrayList<>();
    for (String table : List.of("hookledger.event", "hookledger.attempt", "hookledger.handler_applied",
        "hookledger.entity_version", "hookledger.status_count", "hookledger.effect", "hookledger.effect_attempt",
        "public.scoped_effect")) {
      shards.add(table + "_" + coordinator.fetchValue("select get_shard_id_for_distribution_column(?, ?)", table, scope));
    }
    List<String> references = coordinator.fetch("select n.nspname || '.' || c.relname || '_' || s.shardid"
        + " from pg_dist_partition p join pg_class c on c.oid = p.logicalrelid join pg_namespace n on n.oid = c.relnamespace"
        + " join pg_dist_shard s on s.logicalrelid = p.logicalrelid where p.partmethod = 'n'").getValues(0, String.class);
    try (Connection c = home.getConnection(); Statement s = c.createStatement()) {
      s.execute("set citus.enable_manual_changes_to_shards to on");
      s.execute("set citus.enable_ddl_propagation to off"); // these objects are the worker's own
      s.execute("create table written (kind text not null, xid bigint not null)");
      s.execute("create function record_writer() returns trigger language plpgsql as $$ begin"
          + " insert into written values (TG_ARGV[0], txid_current()); return null; end $$");
      for (String shard : shards) {
        s.execute("create trigger written after insert or update or delete on " + shard
            + " for each statement execute function record_writer('shard')");
      }
      for (String reference : references) {
        s.execute("create trigger written after insert or update or delete on " + reference
            + " for each statement execute function record_writer('reference')");
      }
    }
  }

  /** The statements (calls and text) matching {@code condition} in a worker's {@code pg_stat_statements}. */
  private static List<String> statements(PGSimpleDataSource worker, String condition) throws SQLException {
    List<String> found = new ArrayList<>();
    try (Connection c = worker.getConnection(); Statement s = c.createStatement();
         ResultSet r = s.executeQuery("select calls || ': ' || query from pg_stat_statements where " + condition)) {
      while (r.next()) {
        found.add(r.getString(1));
      }
    }
    return found;
  }

  /** A ledger on the cluster with the handlers' table distributed by scope beside the events. */
  private static TestDatabase.Database clusterDatabase() {
    TestDatabase.Database db = InboxFixture.database();
    db.execute("create table scoped_effect (scope text not null, event_id text not null, n int not null,"
        + " primary key (scope, event_id))");
    db.execute("select create_distributed_table('scoped_effect', 'scope', colocate_with => 'hookledger.event')");
    return db;
  }

  private static WebhookRuntimeBuilder builder(TestDatabase.Database db) {
    return WebhookRuntime.builder()
        .jdbcUrl(db.jdbcUrl())
        .provider(new ScopedTestHook(), Secrets.of(SECRET))
        .handlers(new ScopedHandler())
        .inbox(i -> i.workers(2)
            .pollInterval(Duration.ofMillis(100))
            .shutdownTimeout(Duration.ofSeconds(10))
            .retryPolicy(RetryPolicy.builder().maxAttempts(2).firstDelay(Duration.ofMillis(200)).jitter(0.5).build()));
  }

  private static String scope(int i) {
    return "acct_" + i % SCOPES;
  }

  private static void receive(WebhookRuntime runtime, String scope, String id, String type, String body,
      String entity, long version) {
    InboundDelivery signed = entity == null ? SIGNER.delivery("testhook", id, type, body)
        : SIGNER.delivery("testhook", id, type, body, entity, version);
    InboundDelivery toScope = InboundDelivery.post("/webhooks/testhook/" + scope, signed.headers(), body);
    assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive("testhook", toScope).outcome());
  }

  /** Each status's count from {@code status}, as the rows are, for the statuses in {@code expected}, none else. */
  private static void assertCounts(TestDatabase.Database db, Map<EventStatus, Long> expected) {
    Map<EventStatus, Long> counted = new java.util.TreeMap<>();
    InboxAdmin.builder(db.dataSource()).readTimeout(LOADED).build().status().counts().stream()
        .filter(c -> c.events() != 0)
        .forEach(c -> counted.merge(c.status(), c.events(), Long::sum));
    assertEquals(new java.util.TreeMap<>(expected), counted);
    for (Map.Entry<EventStatus, Long> e : expected.entrySet()) {
      assertEquals(e.getValue(), number(db, "select count(*) from hookledger.event where status = ?",
          e.getKey().name().toLowerCase()));
    }
  }

  private static String workerOf(TestDatabase.Database db, String scope) {
    return LedgerDsl.on(db.dataSource()).fetchValue("select n.nodename || ':' || n.nodeport from pg_dist_placement p"
        + " join pg_dist_node n on n.groupid = p.groupid where p.shardid"
        + " = get_shard_id_for_distribution_column('hookledger.event', ?)", scope).toString();
  }

  private static List<PGSimpleDataSource> workerDatabases(TestDatabase.Database db) {
    PGSimpleDataSource coordinator = (PGSimpleDataSource) db.dataSource();
    List<PGSimpleDataSource> workers = new ArrayList<>();
    for (String w : TestDatabase.citusWorkers()) {
      PGSimpleDataSource ds = new PGSimpleDataSource();
      ds.setServerNames(new String[] {w.substring(0, w.lastIndexOf(':'))});
      ds.setPortNumbers(new int[] {Integer.parseInt(w.substring(w.lastIndexOf(':') + 1))});
      ds.setDatabaseName(coordinator.getDatabaseName());
      ds.setUser(coordinator.getUser());
      ds.setPassword(coordinator.getPassword());
      workers.add(ds);
    }
    return workers;
  }

  private static void execute(PGSimpleDataSource ds, String sql) throws SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** How many transactions the coordinator prepared on this worker's database (two-phase commits). */
  private static long preparedTransactions(PGSimpleDataSource worker) throws SQLException {
    try (Connection c = worker.getConnection(); Statement s = c.createStatement();
         ResultSet r = s.executeQuery("select coalesce(sum(calls), 0) from pg_stat_statements"
             + " where dbid = (select oid from pg_database where datname = current_database())"
             + " and query ilike 'PREPARE TRANSACTION%'")) {
      r.next();
      return r.getLong(1);
    }
  }

  /** Writes its event's own scope's row; {@code job.cross} writes another scope's; {@code job.dies} always fails. */
  public static final class ScopedHandler {
    @OnEvent(value = "job.scoped", skipStale = true)
    void scoped(JsonNode payload, EventContext context, WebhookEvent event, DSLContext tx) {
      write(tx, event.scope(), event.eventId());
      if (payload.path("failFirst").asBoolean() && context.attempt() == 1) {
        throw new IllegalStateException("fails on its first attempt");
      }
    }

    @OnEvent("job.cross")
    void cross(JsonNode payload, WebhookEvent event, DSLContext tx) {
      write(tx, payload.path("to").asText(), event.eventId());
    }

    @OnEvent("job.dies")
    void dies() {
      throw new IllegalStateException("always fails");
    }

    private static void write(DSLContext tx, String scope, String eventId) {
      tx.execute("insert into scoped_effect (scope, event_id, n) values (?, ?, 1)"
          + " on conflict (scope, event_id) do update set n = scoped_effect.n + 1", scope, eventId);
    }
  }

  /** A handler added after the events were processed, applied by a backfill: its event's own scope's row again. */
  public static final class ScopedBackfill {
    static final String NAME = "scoped.backfilled";

    @OnEvent(value = "job.scoped", name = NAME)
    void again(WebhookEvent event, DSLContext tx) {
      ScopedHandler.write(tx, event.scope(), event.eventId());
    }
  }

  /** The test provider, whose entities stay in their scope, as Stripe's and Shopify's do. */
  static final class ScopedTestHook implements ProviderAdapter {
    private final TestHookAdapter hook = new TestHookAdapter();

    @Override
    public String id() {
      return hook.id();
    }

    @Override
    public boolean entitiesStayInScope() {
      return true;
    }

    @Override
    public String tenantOf(InboundDelivery delivery) {
      return hook.tenantOf(delivery);
    }

    @Override
    public void checkHeaders(InboundDelivery delivery, Secrets secrets) {
      hook.checkHeaders(delivery, secrets);
    }

    @Override
    public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
      return hook.verify(delivery, secrets, clock);
    }
  }
}
