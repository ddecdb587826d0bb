package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A measurement, not a gate (run by hand, never timed in CI): what one event's writes cost on an
 * empty ledger and on one holding {@code -Dhookledger.history=N} settled events, for today's shape
 * (one wide row updated by the claim and by the settle) and for the shape issue 24 item 2 proposes
 * (the event written once; a narrow {@code waiting} row per unfinished event, claimed and renewed in
 * place; the settle deleting it and inserting a narrow {@code outcome} row). Each event is inserted,
 * claimed and settled, each step its own transaction, on one connection; commits are not durable
 * (zonky's default), so that what is compared is the work the statements do, not the flushes.
 * Prints events/s and WAL per event for each shape on each ledger.
 * {@code ./mvnw -pl sdk-runtime test -Dtest=LedgerShapesAtScaleTest -Dhookledger.history=1000000}
 */
@EnabledIfSystemProperty(named = "hookledger.history", matches = "\\d+")
class LedgerShapesAtScaleTest {
  private static final int EVENTS = Integer.getInteger("hookledger.events", 5_000);

  /** One shape: its DDL, how history is filled, and the three statements of an event, each bound with one id. */
  private record Shape(String name, List<String> ddl, List<String> fill, List<String> perEvent) {}

  /** About 1.3 KB that compresses as JSON does (hex digits, not one repeated string). */
  private static final String BODY = "convert_to('{\"id\":\"' || %s || '\",\"data\":\"' ||"
      + " (select string_agg(md5(%s || j), '') from generate_series(1, 40) j) || '\"}', 'UTF8')";

  private static final Shape TODAY = new Shape("today (one wide row)",
      List.of(),
      List.of("insert into hookledger.event (provider, scope, event_id, type, delivery_id, body, status, attempts,"
          + " received_at, available_at, settled_at, max_attempts) select 'stripe', '', md5('h' || g)::uuid::text,"
          + " 'invoice.paid', md5('d' || g)::uuid::text, " + String.format(BODY, "g", "g::text") + ", 'done', 1,"
          + " now() - interval '30 days' * ((%1$d - g)::float8 / %1$d), now(), now(), 12 from generate_series(1, %1$d) g"),
      List.of("insert into hookledger.event (provider, scope, event_id, type, delivery_id, body)"
              + " values ('stripe', '', ?, 'invoice.paid', ?, " + String.format(BODY, "'x'", "'x'") + ")"
              + " on conflict do nothing",
          "update hookledger.event set status = 'processing', attempts = attempts + 1, lease_owner = 'w',"
              + " lease_until = now() + interval '30 seconds', available_at = now() + interval '30 seconds'"
              + " where provider = 'stripe' and scope = '' and event_id = ?",
          "update hookledger.event set status = 'done', settled_at = now(), max_attempts = 12, last_error = null,"
              + " lease_owner = null, lease_until = null where provider = 'stripe' and scope = '' and event_id = ?"
              + " and status = 'processing' and lease_owner = 'w'"));

  private static final Shape SPLIT = new Shape("split (event written once, waiting, outcome)",
      List.of("create schema split",
          "create table split.event (provider text not null, scope text not null default '', event_id text not null,"
              + " type text not null, delivery_id text, body bytea not null, headers jsonb not null default '{}',"
              + " received_at timestamptz not null default now(), duplicates integer not null default 0,"
              + " primary key (provider, scope, event_id)) with (fillfactor = 90)",
          "create index on split.event (received_at)",
          "create index on split.event (type, received_at)",
          "create index on split.event (event_id)",
          "create index on split.event (delivery_id) where delivery_id is not null",
          "create table split.waiting (provider text not null, scope text not null, event_id text not null,"
              + " status text not null default 'pending', attempts integer not null default 0,"
              + " available_at timestamptz not null default now(), lease_owner text, lease_until timestamptz,"
              + " last_error text, max_attempts integer, received_at timestamptz not null default now(),"
              + " primary key (provider, scope, event_id))",
          "create index on split.waiting (available_at) where status in ('pending', 'processing')",
          "create table split.outcome (provider text not null, scope text not null, event_id text not null,"
              + " status text not null, attempts integer not null, max_attempts integer, last_error text,"
              + " received_at timestamptz not null, settled_at timestamptz not null,"
              + " primary key (provider, scope, event_id))",
          "create index on split.outcome (settled_at)",
          "create index on split.outcome (received_at) where status = 'ignored'",
          "create index on split.outcome (received_at) where status = 'stale'"),
      List.of("insert into split.event (provider, scope, event_id, type, delivery_id, body, received_at)"
              + " select 'stripe', '', md5('h' || g)::uuid::text, 'invoice.paid', md5('d' || g)::uuid::text, "
              + String.format(BODY, "g", "g::text") + ", now() - interval '30 days' * ((%1$d - g)::float8 / %1$d)"
              + " from generate_series(1, %1$d) g",
          "insert into split.outcome (provider, scope, event_id, status, attempts, max_attempts, received_at, settled_at)"
              + " select provider, scope, event_id, 'done', 1, 12, received_at, received_at from split.event"),
      List.of("with e as (insert into split.event (provider, scope, event_id, type, delivery_id, body)"
              + " values ('stripe', '', ?, 'invoice.paid', ?, " + String.format(BODY, "'x'", "'x'") + ")"
              + " on conflict do nothing returning provider, scope, event_id, received_at)"
              + " insert into split.waiting (provider, scope, event_id, received_at) select * from e",
          "update split.waiting set status = 'processing', attempts = attempts + 1, lease_owner = 'w',"
              + " lease_until = now() + interval '30 seconds', available_at = now() + interval '30 seconds'"
              + " where provider = 'stripe' and scope = '' and event_id = ?",
          "with w as (delete from split.waiting where provider = 'stripe' and scope = '' and event_id = ?"
              + " and status = 'processing' and lease_owner = 'w' returning *)"
              + " insert into split.outcome (provider, scope, event_id, status, attempts, max_attempts, received_at,"
              + " settled_at) select provider, scope, event_id, 'done', attempts, 12, received_at, now() from w"));

  /** As {@link #SPLIT}, the settle also adding to V2's status counts in its statement, instead of a trigger. */
  private static final Shape SPLIT_COUNTED = new Shape("split, counts kept by the settle",
      SPLIT.ddl(), SPLIT.fill(), List.of(SPLIT.perEvent().get(0), SPLIT.perEvent().get(1),
          "with w as (delete from split.waiting where provider = 'stripe' and scope = '' and event_id = ?"
              + " and status = 'processing' and lease_owner = 'w' returning *),"
              + " o as (insert into split.outcome (provider, scope, event_id, status, attempts, max_attempts,"
              + " received_at, settled_at) select provider, scope, event_id, 'done', attempts, 12, received_at, now()"
              + " from w returning provider, status)"
              + " insert into hookledger.status_count as c (provider, status, stripe, events)"
              + " select provider, status, pg_backend_pid() % 64, 1 from o"
              + " on conflict (provider, status, stripe) do update set events = c.events + 1"));

  @Test
  void writesPerEventOnAnEmptyAndAFilledLedgerOfEachShape() throws SQLException {
    long history = Long.parseLong(System.getProperty("hookledger.history"));
    for (Shape shape : List.of(TODAY, SPLIT, SPLIT_COUNTED)) {
      for (long rows : new long[] {0, history}) {
        TestDatabase.Database db = TestDatabase.create();
        InboxAdmin.builder(db.dataSource()).build().migrate();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
          for (String ddl : shape.ddl()) {
            s.execute(ddl);
          }
          long start = System.nanoTime();
          if (rows > 0) {
            // no triggers: V2's count upsert, once per row of one transaction, makes a bulk insert quadratic
            s.execute("set session_replication_role = replica");
            for (String fill : shape.fill()) {
              s.execute(String.format(fill, rows));
            }
            s.execute("reset session_replication_role");
          }
          s.execute("vacuum analyze");
          s.execute("checkpoint");
          long filled = (System.nanoTime() - start) / 1_000_000_000;
          long walBefore = wal(c);
          start = System.nanoTime();
          run(c, shape);
          long ms = Math.max(1, (System.nanoTime() - start) / 1_000_000);
          System.out.printf("%-48s history %9d (filled in %3d s): %6d events/s, %.1f KiB WAL per event%n",
              shape.name(), rows, filled, EVENTS * 1000L / ms, (wal(c) - walBefore) / 1024.0 / EVENTS);
        }
      }
    }
  }

  private static void run(Connection c, Shape shape) throws SQLException {
    List<PreparedStatement> steps = new java.util.ArrayList<>();
    try {
      for (String sql : shape.perEvent()) {
        steps.add(c.prepareStatement(sql));
      }
      for (int i = 0; i < EVENTS; i++) {
        String id = java.util.UUID.nameUUIDFromBytes(("new/" + i).getBytes()).toString();
        steps.get(0).setString(1, id);
        steps.get(0).setString(2, "d-" + id);
        steps.get(0).executeUpdate();
        for (PreparedStatement step : steps.subList(1, steps.size())) {
          step.setString(1, id);
          if (step.executeUpdate() < 1) {
            throw new IllegalStateException(shape.name() + ": a step changed no row for " + id);
          }
        }
      }
    } finally {
      for (PreparedStatement ps : steps) {
        ps.close();
      }
    }
  }

  private static long wal(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select pg_current_wal_lsn() - '0/0'::pg_lsn")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
