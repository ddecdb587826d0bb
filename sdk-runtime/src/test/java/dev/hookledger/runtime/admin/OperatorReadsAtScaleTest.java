package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.internal.ledger.LedgerMigration;
import dev.hookledger.runtime.testing.TestDatabase;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A measurement, not a gate (run by hand, never timed in CI): fills a version-1 ledger with
 * {@code -Dhookledger.history=N} settled events, times the operator's reads as earlier builds sent
 * them, migrates it in place, and times the same reads as this build sends them. Prints the medians.
 * {@code ./mvnw -pl sdk-runtime test -Dtest=OperatorReadsAtScaleTest -Dhookledger.history=1000000}
 */
@EnabledIfSystemProperty(named = "hookledger.history", matches = "\\d+")
class OperatorReadsAtScaleTest {
  private static final int RUNS = 5;

  @Test
  void readsBeforeAndAfterTheMigration() {
    long history = Long.parseLong(System.getProperty("hookledger.history"));
    TestDatabase.Database db = TestDatabase.create();
    DSLContext sql = DSL.using(db.dataSource(), SQLDialect.POSTGRES);
    sql.execute(LedgerMigration.ALL.get(0).sql("hookledger"));
    long start = System.nanoTime();
    // a month of settled history, newest a minute ago, bodies of a typical size; a few waiting and dead
    sql.execute("insert into hookledger.event (provider, event_id, type, body, status, received_at, available_at,"
        + " settled_at, attempts) select case when i % 50 = 0 then 'github' else 'stripe' end, 'evt_' || i,"
        + " case when i % 40 = 0 then 'invoice.paid' else 'customer.updated' end, convert_to(repeat('x', 400), 'UTF8'),"
        + " case when i % 100 = 0 then 'ignored' else 'done' end,"
        + " now() - i * (interval '30 days' / " + history + "), now() - i * (interval '30 days' / " + history + "),"
        + " now() - i * (interval '30 days' / " + history + ") + interval '1 second', 1"
        + " from generate_series(1, " + history + ") i");
    sql.execute("insert into hookledger.event (provider, event_id, type, body, status, attempts, last_error)"
        + " select 'stripe', 'evt_w' || i, 'invoice.paid', '\\x7b7d', case when i % 10 = 0 then 'dead' else 'pending' end,"
        + " 2, 'boom' from generate_series(1, 200) i");
    sql.execute("vacuum analyze hookledger.event");
    System.out.printf("filled %d settled events in %d s%n", history, (System.nanoTime() - start) / 1_000_000_000);

    String page = "select provider, scope, event_id, type, status, attempts, received_at, settled_at, last_error"
        + " from hookledger.event %s order by received_at desc, provider desc, scope desc, event_id desc limit 51";
    time("before: status (group by over the table)", () -> sql.fetch("select provider, status, count(*),"
        + " coalesce(sum(duplicates), 0) from hookledger.event group by provider, status"));
    time("before: chart received (last hour)", () -> sql.fetch("select date_trunc('minute', received_at), count(*)"
        + " from hookledger.event where received_at >= now() - interval '1 hour' group by 1"));
    time("before: chart settled (last hour)", () -> sql.fetch("select date_trunc('minute', settled_at), count(*)"
        + " from hookledger.event where settled_at >= now() - interval '1 hour' group by 1"));
    time("before: list (no filter)", () -> sql.fetch(String.format(page, "")));
    time("before: list --type invoice.paid", () -> sql.fetch(String.format(page, "where type = 'invoice.paid'")));
    time("before: list --provider github", () -> sql.fetch(String.format(page, "where provider = 'github'")));
    time("before: list --status ignored", () -> sql.fetch(String.format(page, "where status = 'ignored'")));

    start = System.nanoTime();
    InboxAdmin admin = InboxAdmin.builder(db.dataSource()).build();
    admin.migrate();
    System.out.printf("migrated V1 -> V%d in place in %d s%n", LedgerMigration.latest(),
        (System.nanoTime() - start) / 1_000_000_000);
    sql.execute("analyze hookledger.event");

    time("after: status", admin::status);
    time("after: backlog (/healthz)", admin::backlog);
    time("after: chart (throughput)", admin::throughput);
    time("after: list (no filter)", () -> admin.list(EventQuery.all()));
    time("after: list --type invoice.paid", () -> admin.list(EventQuery.builder().type("invoice.paid").build()));
    time("after: list --provider github", () -> admin.list(EventQuery.builder().provider("github").build()));
    time("after: list --status ignored", () -> admin.list(EventQuery.builder().status(StatusFilter.IGNORED).build()));
    time("after: list --status failing", () -> admin.list(EventQuery.builder().status(StatusFilter.FAILING).build()));
    time("after: list --status dead", () -> admin.list(EventQuery.builder().status(StatusFilter.DEAD).build()));
    time("after: prune --dry-run (30d)", () -> admin.prunePreview(InboxAdmin.DEFAULT_PRUNE_WINDOW, false));
  }

  /**
   * What V2's trigger and V3's indexes add to each event's writes: insert, claim, settle (one
   * transaction each, as the receive path and a worker send them), on a young (unanalysed) ledger of
   * each shape. Not durable (zonky's default): CPU, not commits, is what this compares.
   */
  @Test
  void writesPerEventOnAVersion1AndACurrentLedger() throws Exception {
    int events = 5000;
    List<String> names = List.of("", "V1", "V1 + V2's trigger", "V1 + V3's indexes", "current (V3)");
    for (int variant : new int[] {1, 2, 3, 4}) {
      TestDatabase.Database db = TestDatabase.create();
      DSLContext sql = DSL.using(db.dataSource(), SQLDialect.POSTGRES);
      sql.execute(LedgerMigration.ALL.get(0).sql("hookledger"));
      if (variant == 2) {
        sql.execute(LedgerMigration.ALL.get(1).sql("hookledger"));
      }
      if (variant == 3) {
        LedgerMigration.ALL.get(2).statements("hookledger").stream().filter(st -> st.startsWith("CREATE"))
            .forEach(sql::execute);
      }
      if (variant == 4) {
        InboxAdmin.builder(db.dataSource()).build().migrate();
      }
      try (java.sql.Connection c = db.dataSource().getConnection();
          var insert = c.prepareStatement("insert into hookledger.event (provider, event_id, type, body)"
              + " values ('stripe', ?, 'invoice.paid', convert_to(repeat('x', 400), 'UTF8'))");
          var claim = c.prepareStatement("update hookledger.event set status = 'processing', attempts = attempts + 1,"
              + " lease_owner = 'w', lease_until = now() + interval '30 seconds' where provider = 'stripe' and scope = ''"
              + " and event_id = ?");
          var settle = c.prepareStatement("update hookledger.event set status = 'done', settled_at = now(),"
              + " lease_owner = null, lease_until = null where provider = 'stripe' and scope = '' and event_id = ?")) {
        long start = System.nanoTime();
        for (int i = 0; i < events; i++) {
          for (var ps : List.of(insert, claim, settle)) {
            ps.setString(1, "evt_" + i);
            ps.executeUpdate();
          }
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("%-20s %d events inserted, claimed and settled in %d ms (%d events/s)%n",
            names.get(variant), events, ms, events * 1000L / Math.max(1, ms));
      }
    }
  }

  private static void time(String what, Supplier<?> read) {
    long[] ms = new long[RUNS];
    for (int i = 0; i < RUNS; i++) {
      long t = System.nanoTime();
      read.get();
      ms[i] = (System.nanoTime() - t) / 1_000_000;
    }
    Arrays.sort(ms);
    System.out.printf("%-45s median %6d ms  max %6d ms%n", what, ms[RUNS / 2], ms[RUNS - 1]);
  }
}
