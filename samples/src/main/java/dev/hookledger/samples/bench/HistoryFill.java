package dev.hookledger.samples.bench;

import dev.hookledger.runtime.admin.EventQuery;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.StatusFilter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * {@code bench --history N}: fills a ledger with N settled events before the load runs on it, so
 * that the same load is measured on an empty ledger and on one with a long history in one run
 * ({@link SideBySide}).
 *
 * <p>The rows are written by the database itself ({@code INSERT ... SELECT generate_series}, in
 * bounded transactions), not sent through the door: a million deliveries over HTTP would take longer
 * than the measurement. They look like a month of a store's traffic: the three providers, several
 * types each, ids as random as the providers' (GitHub and Shopify send UUIDs), bodies of 1 to 3 KB
 * that compress like JSON does, received over the last 30 days and settled 200 ms later, mostly
 * {@code done}, a few {@code ignored} and {@code stale}. The indexes on random keys are dropped for the
 * fill and rebuilt after it, as a bulk import would ({@link #dropBulkIndexes}). Then the count
 * changes the rows appended are folded and the database vacuumed and analysed, as the roll-up pass
 * and autovacuum would have done over that month.
 */
final class HistoryFill {
  /** The most rows a fill writes: the 10 million, with room. */
  static final long MAX_ROWS = 100_000_000L;
  /** Rows per transaction: a bounded WAL and lock footprint, progress every step. */
  static final int ROWS_PER_STEP = 100_000;
  /** Count changes one fold call moves (each in its own transaction: the connection commits each). */
  private static final int FOLD_BATCH = 200_000;
  /** Distinct bodies the rows share (a row's body is one of them, by its number). */
  private static final int BODIES = 1_000;

  /** Calls of each operator read timed: the p95 over 20. */
  static final int READ_RUNS = 20;

  private final DataSource dataSource;
  private final String schema;

  HistoryFill(DataSource dataSource, String schema) {
    this.dataSource = dataSource;
    this.schema = schema;
  }

  /** What a fill did. */
  record Result(long rows, long elapsedNanos, long ledgerBytes) {}

  /**
   * Writes {@code rows} settled events, their ids disjoint from any a {@link LoadPlan} sends, and
   * reports progress on {@code progress}.
   */
  Result fill(long rows, PrintStream progress) throws SQLException {
    long start = System.nanoTime();
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      String timeout;
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW statement_timeout")) {
        rs.next();
        timeout = rs.getString(1);
      }
      try (Statement s = c.createStatement()) {
        // the pool's connections carry the runtime's 5 s statement timeout; a step, the vacuum and the
        // checkpoint of millions of rows take longer: off for this connection, restored after
        s.execute("SET statement_timeout = 0");
        s.execute("DROP TABLE IF EXISTS pg_temp.bench_body");
        s.execute("CREATE TEMP TABLE bench_body AS"
            + " SELECT i, convert_to('{\"id\":\"evt_history_' || i || '\",\"object\":\"event\",\"data\":\"'"
            + " || string_agg(md5(i || '/' || j), '' ORDER BY j) || '\"}', 'UTF8') AS body"
            + " FROM generate_series(0, " + (BODIES - 1) + ") i, generate_series(1, 30 + i % 60) j GROUP BY i");
        // without statistics the planner joined each row to a scan of every body: a million rows took hours
        s.execute("ALTER TABLE pg_temp.bench_body ADD PRIMARY KEY (i)");
        s.execute("ANALYZE pg_temp.bench_body");
      }
      // counted by the ledger's row triggers as a bulk import's would be: from V14 one appended count
      // row per event row (linear), folded by the running runtime's roll-up pass as the fill goes
      // (V2's row triggers upserted one count row per event row: quadratic, hours per million)
      List<String> rebuild = dropBulkIndexes(c);
      insertSteps(c, rows, start, progress);
      try (Statement s = c.createStatement()) {
        s.execute("SET maintenance_work_mem = '512MB'");
        for (String definition : rebuild) {
          s.execute(definition);
        }
        progress.printf("  %-18s %d indexes rebuilt (%.0f s)%n", "history", rebuild.size(),
            (System.nanoTime() - start) / 1e9);
        s.execute("RESET maintenance_work_mem");
        long folded = foldCounts(c);
        progress.printf("  %-18s %d count changes left to fold (%.0f s)%n", "history", folded,
            (System.nanoTime() - start) / 1e9);
        // every table of this database (it holds this ledger alone): the event table, and the count
        // tables the fold just emptied of millions of change rows, as autovacuum would over a month
        s.execute("VACUUM ANALYZE");
        s.execute("CHECKPOINT");
        s.execute("SET statement_timeout = '" + timeout + "'");
      }
      return new Result(rows, System.nanoTime() - start, ledgerBytes(c));
    }
  }

  /**
   * Drops the event table's indexes that neither back a constraint nor cover a status (the runtime
   * polling this ledger during the fill reads those), and returns their definitions to rebuild after
   * the fill: maintained row by row, the ones on random keys ({@code event_id}, the delivery id's
   * hash) turned a fill of 10 million into hours of random leaf writes; a rebuild is one sort.
   */
  private List<String> dropBulkIndexes(Connection c) throws SQLException {
    List<String> definitions = new ArrayList<>();
    List<String> names = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT i.relname, pg_get_indexdef(x.indexrelid)"
        + " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid"
        + " JOIN pg_namespace n ON n.oid = t.relnamespace"
        + " WHERE n.nspname = ? AND t.relname = 'event'"
        + " AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)"
        + " AND coalesce(pg_get_expr(x.indpred, x.indrelid), '') NOT LIKE '%status%'"
        + " ORDER BY i.relname")) {
      ps.setString(1, schema);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
          definitions.add(rs.getString(2));
        }
      }
    }
    try (Statement s = c.createStatement()) {
      for (String name : names) {
        s.execute("DROP INDEX " + schema + "." + name);
      }
    }
    return definitions;
  }

  /**
   * Folds the count changes the fill's rows appended (one per row, version 14 on) into the counts,
   * as the running runtime's roll-up pass does every 30 s, here on this connection without its
   * statement timeout: a month of traffic is read by the operator folded, not as ten million
   * changes to add up; the count tables vacuumed after each batch, so that they stay as small as a
   * month of folding leaves them. Returns how many were folded here (the runtime's pass folds some).
   * The bench migrates its ledgers to the newest version, which has the fold (V14).
   */
  private long foldCounts(Connection c) throws SQLException {
    long folded = 0;
    try (PreparedStatement ps = c.prepareStatement("SELECT " + schema + ".fold_count_changes(?)")) {
      long batch;
      do {
        ps.setInt(1, FOLD_BATCH);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          batch = rs.getLong(1);
        }
        folded += batch;
        // the fold finds its next changes by reading past the rows it deleted: cleared after each
        // batch, so that ten million cost fifty batches, not fifty scans of millions of dead rows
        try (Statement s = c.createStatement()) {
          s.execute("VACUUM " + schema + ".status_count, " + schema + ".minute_count");
        }
      } while (batch >= FOLD_BATCH);
    }
    return folded;
  }

  private void insertSteps(Connection c, long rows, long start, PrintStream progress) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(insertSql())) {
      for (long from = 0; from < rows; from += ROWS_PER_STEP) {
        long to = Math.min(rows, from + ROWS_PER_STEP) - 1;
        ps.setLong(1, rows);
        ps.setLong(2, from);
        ps.setLong(3, to);
        ps.executeUpdate();
        // folded as it goes, as the roll-up pass folds a month of traffic every 30 s: left to the
        // runtime's pass (20,000 a transaction, 5 s statement timeout) behind a fill this fast, the
        // changes piled up by millions and the count tables stayed 700 MB after their fold
        foldCounts(c);
        progress.printf("  %-18s %d of %d settled events written (%.0f s)%n", "history", to + 1, rows,
            (System.nanoTime() - start) / 1e9);
      }
    }
  }

  /**
   * Times the operator's reads on the filled ledger, each {@link #READ_RUNS} times, median and p95:
   * status, the backlog {@code /healthz} reads, the admin page's chart, a page of {@code list}
   * unfiltered and with each status filter.
   */
  void timeReads(InboxAdmin admin, URI server, String adminToken, PrintStream out) {
    Map<String, Runnable> reads = new LinkedHashMap<>();
    reads.put("status", admin::status);
    reads.put("backlog (/healthz)", admin::backlog);
    reads.put("chart", admin::throughput);
    reads.put("list", () -> admin.list(EventQuery.all()));
    for (StatusFilter f : StatusFilter.values()) {
      reads.put("list --status " + f.name().toLowerCase(java.util.Locale.ROOT),
          () -> admin.list(EventQuery.builder().status(f).build()));
    }
    // the same reads as an operator's browser makes them: the page, the JSON it reloads, /healthz
    HttpClient http = HttpClient.newHttpClient();
    for (String path : new String[] {"/admin/", "/admin/status.json", "/admin/activity.json",
        "/admin/events.json", "/admin/dead.json", "/healthz"}) {
      reads.put("GET " + path, () -> get(http, server.resolve(path), adminToken, out));
    }
    StringBuilder line = new StringBuilder();
    reads.forEach((name, read) -> {
      long[] ms = new long[READ_RUNS];
      for (int i = 0; i < READ_RUNS; i++) {
        long t = System.nanoTime();
        read.run();
        ms[i] = (System.nanoTime() - t) / 1_000_000;
      }
      Arrays.sort(ms);
      line.append(line.length() == 0 ? "" : ", ").append(name).append(' ').append(ms[READ_RUNS / 2])
          .append('/').append(ms[(int) Math.ceil(READ_RUNS * 0.95) - 1]).append(" ms");
    });
    out.printf("  %-18s %s (median/p95 of %d)%n", "operator reads", line, READ_RUNS);
  }

  /** One GET as the admin; an answer other than 200 is said on the bench's {@code out}, not thrown. */
  private static void get(HttpClient http, URI uri, String adminToken, PrintStream out) {
    try {
      HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri)
          .header("Authorization", "Bearer " + adminToken).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
      if (r.statusCode() != 200) { // printed, not thrown: a long fill's other figures still count
        out.printf("  %-18s GET %s answered %d%n", "operator reads", uri.getPath(), r.statusCode());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Everything in the ledger's schema, tables with their indexes and TOAST. */
  private long ledgerBytes(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT coalesce(sum(pg_total_relation_size(t.oid)), 0)"
        + " FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = ? AND t.relkind = 'r'")) {
      ps.setString(1, schema);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Rows {@code ? .. ?} of {@code ?}: row g was received {@code (total - g) / total} of 30 days ago.
   */
  private String insertSql() {
    return "INSERT INTO " + schema + ".event (provider, scope, event_id, type, entity_key, entity_version,"
        + " occurred_at, delivery_id, body, headers, secret_id, source, status, attempts, available_at, received_at,"
        + " settled_at, max_attempts)"
        + " SELECT p.provider, p.scope, p.event_id, p.type, p.entity_key, p.version, p.at, p.delivery_id, b.body,"
        + " '{}'::jsonb, 'current', 'delivery', p.status, 1, p.at, p.at, p.at + interval '200 milliseconds', 10"
        + " FROM (SELECT g, x.total,"
        + "   (ARRAY['stripe', 'github', 'shopify'])[g % 3 + 1] AS provider,"
        + "   CASE g % 3 WHEN 0 THEN CASE WHEN g % 7 = 0 THEN 'acct_' || (g % 40) ELSE '' END"
        + "     WHEN 1 THEN (1000 + g % 12)::text ELSE 'shop-' || (g % 25) || '.myshopify.com' END AS scope,"
        + "   CASE g % 3 WHEN 0 THEN 'evt_history_' || md5(g::text) ELSE md5('history/' || g)::uuid::text END AS event_id,"
        + "   CASE g % 3 WHEN 0 THEN (ARRAY['invoice.paid', 'invoice.created', 'customer.updated', 'charge.succeeded'])[g / 3 % 4 + 1]"
        + "     WHEN 1 THEN (ARRAY['push', 'issues', 'pull_request'])[g / 3 % 3 + 1]"
        + "     ELSE (ARRAY['orders/create', 'orders/updated', 'products/update'])[g / 3 % 3 + 1] END AS type,"
        + "   'history_' || (g % 3) || '_' || (g / 3 % 50000) AS entity_key, g AS version,"
        + "   CASE WHEN g % 3 = 0 THEN NULL ELSE md5('delivery/' || g)::uuid::text END AS delivery_id,"
        + "   now() - interval '30 days' * ((x.total - g)::float8 / x.total) AS at,"
        + "   CASE WHEN g % 50 = 7 THEN 'ignored' WHEN g % 97 = 11 THEN 'stale' ELSE 'done' END AS status"
        + "   FROM (SELECT ?::bigint AS total) x, generate_series(?::bigint, ?::bigint) g) p"
        + " JOIN bench_body b ON b.i = p.g % " + BODIES
        + " ON CONFLICT DO NOTHING";
  }
}
