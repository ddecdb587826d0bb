package dev.hookledger.runtime.admin;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.StatementRecorder;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A measurement, not a gate (run by hand, never timed in CI): imports {@code -Dhookledger.bulk=N}
 * settled events into one ledger in one statement, starts a runtime on it and one on an empty ledger
 * of the same server, and for {@code -Dhookledger.bulk.minutes} (default 5) sends both the same
 * processing rounds in alternating order (E B, B E, ...), each {@value #ROUND} pending events
 * written as a receive writes them and settled by the runtime's workers, while the bulk side's
 * roll-up pass folds the import's count changes and gives the count tables their space back. Prints
 * per round each side's settled events/s, the operator's reads on the bulk side ({@code status}, and
 * every read the admin page makes for its first view, as {@code AdminServlet} does) and the count
 * tables' size. The import is half dead; then the bulk side's dead events are retried as
 * {@code retry --dead --confirm N} does ({@link InboxAdmin#retryDead(long)}, one {@code UPDATE}), and for
 * as long again the bulk side's runtime drains them in windows as long as the empty side's last round
 * (each runtime runs only while it is measured), with the same reads after each pair. Each statement
 * of the page's reads is printed with its plan ({@code EXPLAIN (ANALYZE, BUFFERS)}) after the import,
 * after the watch, after the retry and at the end. {@code ./mvnw -B -o -pl sdk-runtime -am test -Dtest=BulkChangeAtScaleTest
 * -Dhookledger.bulk=2000000 -Dsurefire.failIfNoSpecifiedTests=false}
 */
@EnabledIfSystemProperty(named = "hookledger.bulk", matches = "\\d+")
class BulkChangeAtScaleTest {
  private static final int ROUND = 1_000;
  private static final int READS = 5;

  @Test
  void processingAndOperatorReadsAfterAnImportInOneStatement() {
    long n = Long.parseLong(System.getProperty("hookledger.bulk"));
    Duration watch = Duration.ofMinutes(Long.getLong("hookledger.bulk.minutes", 5));
    TestDatabase.Database emptyDb = TestDatabase.create();
    TestDatabase.Database bulkDb = TestDatabase.create();
    for (TestDatabase.Database db : List.of(emptyDb, bulkDb)) {
      // durable commits, as a production server has them (zonky's embedded server turns them off), for
      // every session opened from here on
      DSLContext session = DSL.using(db.dataSource(), SQLDialect.POSTGRES);
      session.execute("alter database " + session.fetchSingle("select current_database()").get(0, String.class)
          + " set synchronous_commit = on");
      System.out.println("server: fsync " + session.fetchSingle("show fsync").get(0, String.class) + ", "
          + session.fetchSingle("select version()").get(0, String.class));
    }
    Side empty = new Side("E", emptyDb.pooled());
    Side bulk = new Side("B", bulkDb.pooled());
    for (Side s : List.of(empty, bulk)) {
      s.admin.migrate();
    }
    long start = System.nanoTime();
    bulk.sql.connection(c -> {
      try (var s = c.createStatement()) {
        s.execute("set statement_timeout = 0");
        // an import from another system: a month of settled events, three providers, 400-byte bodies, half of
        // them dead (the bulk retry below sets those back to pending)
        s.execute("insert into hookledger.event (provider, event_id, type, body, status, received_at, available_at,"
            + " settled_at, attempts) select case i % 3 when 0 then 'github' when 1 then 'stripe' else 'shopify' end,"
            + " 'evt_import_' || i, 't.imported', convert_to(repeat('x', 400), 'UTF8'),"
            + " case when i % 2 = 0 then 'dead' else 'done' end,"
            + " now() - interval '1 day' - i * (interval '30 days' / " + n + "),"
            + " now() - interval '1 day' - i * (interval '30 days' / " + n + "),"
            + " now() - interval '1 day' - i * (interval '30 days' / " + n + ") + interval '1 second', 1"
            + " from generate_series(1, " + n + ") i");
        s.execute("reset statement_timeout");
      }
    });
    System.out.printf("imported %d settled events in one statement in %.0f s; count tables %s%n", n,
        (System.nanoTime() - start) / 1e9, bulk.countTables());

    bulk.explainPage("after the import");

    Handler handler = new Handler();
    try (WebhookRuntime e = empty.runtime(handler); WebhookRuntime b = bulk.runtime(handler)) {
      long began = System.nanoTime();
      System.out.println("t(s)  first  E ev/s  B ev/s  B/E   B status ms  B page ms  B count tables");
      int round = 0;
      while (System.nanoTime() - began < watch.toNanos()) {
        Side first = round % 2 == 0 ? empty : bulk;
        Side second = first == empty ? bulk : empty;
        double r1 = first.round(round);
        double r2 = second.round(round);
        double e1 = first == empty ? r1 : r2;
        double b1 = first == empty ? r2 : r1;
        double status = median(() -> bulk.admin.status());
        double page = median(bulk::pageReads);
        System.out.printf("%4.0f  %s  %6.0f  %6.0f  %.2f  %11.1f  %9.1f  %s%n", (System.nanoTime() - began) / 1e9,
            first.name, e1, b1, b1 / e1, status, page, bulk.countTables());
        round++;
      }
    }
    bulk.explainPage("after " + watch.toMinutes() + " minutes");

    // a bulk retry of the imported dead events, as `retry --dead --confirm N` runs it: one UPDATE
    long dead = bulk.admin.backlog().dead();
    start = System.nanoTime();
    int retried = bulk.admin.retryDead(dead);
    System.out.printf("retried %d dead events in one statement in %.0f s; count tables %s%n", retried,
        (System.nanoTime() - start) / 1e9, bulk.countTables());
    bulk.explainPage("after the bulk retry");
    // the retried events are the bulk side's work now: its runtime drains them in windows as long as
    // the empty side's last round, alone (each side's runtime runs only while it is measured)
    try (WebhookRuntime e = empty.runtime(handler)) {
      long began = System.nanoTime();
      System.out.println("t(s)  E ev/s  B ev/s  B/E   B waiting  B status ms  B page ms  B count tables");
      int round = 0;
      double window = 2;
      while (System.nanoTime() - began < watch.toNanos() && bulk.waiting() > 0) {
        double e1 = empty.round(1_000 + round);
        window = Math.max(window, ROUND / e1);
        double b1 = bulk.drain(handler, Duration.ofMillis((long) (window * 1000)));
        double status = median(() -> bulk.admin.status());
        double page = median(bulk::pageReads);
        System.out.printf("%4.0f  %6.0f  %6.0f  %.2f  %9d  %11.1f  %9.1f  %s%n", (System.nanoTime() - began) / 1e9,
            e1, b1, b1 / e1, bulk.waiting(), status, page, bulk.countTables());
        round++;
      }
    }
    bulk.explainPage("after " + watch.toMinutes() + " minutes of draining the retried events");
  }

  /** The median of {@value #READS} calls, in ms. */
  private static double median(Supplier<?> read) {
    double[] ms = new double[READS];
    for (int i = 0; i < READS; i++) {
      long t = System.nanoTime();
      read.get();
      ms[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(ms);
    return ms[READS / 2];
  }

  static final class Handler {
    @OnEvent("*")
    void any(WebhookEvent event) {}
  }

  private static final class Side {
    final String name;
    final DataSource ds;
    final DSLContext sql;
    final InboxAdmin admin;
    final StatementRecorder recorder;

    Side(String name, DataSource ds) {
      this.name = name;
      this.ds = ds;
      this.sql = DSL.using(ds, SQLDialect.POSTGRES);
      this.recorder = new StatementRecorder(ds);
      this.admin = InboxAdmin.builder(recorder.dataSource()).readTimeout(Duration.ofSeconds(60)).build();
    }

    /**
     * The reads of the admin page as {@code AdminServlet} makes them for its first view: status, the
     * first page of the tab it opens on, the causes when anything fails or died, the refusals, the
     * chart, the backfills and the afterCommit failures.
     */
    Object pageReads() {
      InboxStatus status = admin.status();
      StatusFilter tab = status.failing() > 0 ? StatusFilter.FAILING : status.stuck() > 0 ? StatusFilter.STUCK
          : status.dead() > 0 ? StatusFilter.DEAD : null;
      EventPage page = admin.list(EventQuery.builder().status(tab).limit(50).build());
      List<CauseCount> causes = status.failing() + status.dead() == 0 ? List.of() : admin.causes();
      return List.of(page, causes, admin.refusedCounts(), admin.throughput(), admin.backfills(),
          admin.afterCommitFailures(), admin.backlog());
    }

    /** Prints the plan, with its timing and buffers, of each statement the page's reads and status send. */
    void explainPage(String when) {
      recorder.drain();
      pageReads();
      String settings = null;
      for (String statement : recorder.drain()) {
        String lower = statement.stripLeading().toLowerCase(java.util.Locale.ROOT);
        if (lower.startsWith("select set_config(")) {
          // the planner settings of the transaction the next reads ran in (WaitingRows.inIndexOrder)
          settings = statement;
        } else if (lower.startsWith("select")) {
          if (!statement.contains("\"hookledger\".\"event\"")) {
            // a read of another table: the transaction of those settings has ended (they read only the events)
            settings = null;
          }
          System.out.println("-- " + when + ": " + (settings == null ? "" : settings + "; ") + statement);
          String set = settings;
          sql.transaction(cfg -> {
            if (set != null) {
              cfg.dsl().fetch(set);
            }
            cfg.dsl().fetch("explain (analyze, buffers) " + statement).getValues(0, String.class)
                .forEach(line -> System.out.println("   " + line));
          });
        } else {
          settings = null;
        }
      }
    }

    /**
     * Runs this side's runtime for {@code window} on the events already waiting, then closes it;
     * returns events settled per second over the runtime's life.
     */
    double drain(Handler handler, Duration window) {
      long before = waiting();
      long t = System.nanoTime();
      try (WebhookRuntime r = runtime(handler)) {
        LockSupport.parkNanos(window.toNanos());
      }
      // the runtime's life only: the count after it (a read of every waiting row) was in it
      double seconds = (System.nanoTime() - t) / 1e9;
      return (before - waiting()) / seconds;
    }

    /**
     * The waiting rows, every one counted (the admin counts up to InboxStatus.COUNTED + 1): the
     * measurement's own figure, outside the reads it times.
     */
    long waiting() {
      return sql.fetchCount(DSL.table("hookledger.event"), DSL.condition("status in ('pending', 'processing')"));
    }

    WebhookRuntime runtime(Handler handler) {
      WebhookRuntime r = WebhookRuntime.builder().dataSource(ds).provider(new TestHookAdapter(), Secrets.of("s"))
          .handlers(handler).inbox(i -> i.workers(4).pollInterval(Duration.ofMillis(100))).build();
      r.start();
      return r;
    }

    /**
     * Writes {@link #ROUND} pending events as a receive does and waits until they are settled;
     * returns events/s from the first received to the last settled, by the database's clock.
     */
    double round(int round) {
      String prefix = "evt_" + name + "_" + round + "_";
      sql.execute("insert into hookledger.event (provider, event_id, type, body) select 'testhook', ? || i,"
          + " 't.created', convert_to('{\"id\":' || i || '}', 'UTF8') from generate_series(1, " + ROUND + ") i", prefix);
      Await.until("round " + round + " settled on " + name, Duration.ofMinutes(10),
          () -> sql.fetchCount(DSL.table("hookledger.event"), DSL.condition("status in ('pending', 'processing')")) == 0);
      return sql.fetchSingle("select ?::float8 / extract(epoch from max(settled_at) - min(received_at))"
          + " from hookledger.event where event_id like ? || '%' and provider = 'testhook'", ROUND, prefix)
          .get(0, Double.class);
    }

    String countTables() {
      List<String> sizes = new ArrayList<>();
      for (String t : List.of("status_count", "minute_count")) {
        sizes.add(t + " " + sql.fetchSingle("select pg_size_pretty(pg_total_relation_size(?::regclass)) || '/'"
            + " || (select count(*) from hookledger." + t + ")", "hookledger." + t).get(0, String.class));
      }
      return String.join(", ", sizes);
    }
  }
}
