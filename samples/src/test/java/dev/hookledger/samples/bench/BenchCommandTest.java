package dev.hookledger.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.samples.server.SampleApp;
import dev.hookledger.samples.server.SampleDatabase;
import dev.hookledger.samples.server.SampleSecrets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The benchmark runs end to end on a tiny load; its numbers are not checked (never a timed test). */
class BenchCommandTest {

  @Test
  void benchWithEffectsReportsTheOutboxsFiguresEachBesideItsBaseline() {
    Report bench = bench("--deliveries", "30", "--duplicates", "0", "--clients", "2", "--max-seconds", "60",
        "--warmup", "0", "--effects", "--effects-stored", "1000");
    String report = bench.text();
    assertEquals(0, bench.code(), report);
    assertTrue(report.matches("(?s).*\n  effects            \\d+ events/s settled with one effect each, sent \\(enqueue to"
        + " send p50 [0-9.]+ ms, p99 [0-9.]+ ms over 30 effects\\); \\d+ without effects; ratio [0-9.]+ \\(target >= 0.85\\)\n"
        + "  commit to send     p50 [0-9.]+ ms \\(target <= 5 ms\\), p99 [0-9.]+ ms \\(target <= 50 ms\\), max [0-9.]+ ms over"
        + " 30 effects: from the handler's commit \\(an afterCommit action\\) to the sink's receipt\n"
        + "  dispatcher alone   \\d+ effects/s sent \\(30 in [0-9.]+ s, from the first attempt's start to the last one's"
        + " end\\), [0-9.]+ of the raw limit \\(a\\) \\(target >= 0.5\\)\n"
        + "  effects stored     1000 settled effects and their attempts written in \\d+ s\n"
        + "  dispatcher, stored \\d+ effects/s sent with 1000 settled effects stored \\(30 in [0-9.]+ s, .*\\), [0-9.]+ of the"
        + " empty table's \\(target >= 0.9\\)\n.*"), report);
  }

  @Test
  void benchOnADatabaseNamedByUrlSettlesEveryEventThereOnce() {
    TestDatabase.Database db = TestDatabase.create();
    Report bench = bench("--database-url", db.jdbcUrl(), "--deliveries", "20", "--duplicates", "0", "--clients", "2",
        "--max-seconds", "60", "--warmup", "0");
    String report = bench.text();
    assertEquals(0, bench.code(), report);
    assertTrue(report.contains("\n  database           PostgreSQL at " + db.jdbcUrl() + "\n"), report);
    assertTrue(report.contains("  effects            exactly once: balances, commit counts and orders match the distinct"
        + " events\n"), report);
    try (java.sql.Connection c = db.dataSource().getConnection(); java.sql.Statement st = c.createStatement();
        java.sql.ResultSet r = st.executeQuery("select count(*) from hookledger.event")) {
      r.next();
      assertTrue(r.getLong(1) >= 20, "the ledger is in the named database: " + r.getLong(1));
    } catch (java.sql.SQLException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void refusesAHistoryOnADatabaseNamedByUrl() {
    String err = refused("--database-url", "jdbc:postgresql://localhost/none", "--history", "10");
    assertTrue(err.startsWith("history needs the embedded server: leave out --database-url"), err);
  }

  @Test
  void refusesStoredEffectsWithoutTheEffectsPhase() {
    String err = refused("--effects-stored", "1000");
    assertTrue(err.startsWith("effects-stored needs --effects"), err);
  }

  @Test
  void benchWithPeersRunsEachDesignBesideItsHandWrittenPeerAndSettlesEveryEventOnceInEach() {
    String report = successfulReport("--deliveries", "24", "--clients", "2", "--max-seconds", "60", "--warmup", "6",
        "--peers", "--rounds", "2");
    String run = "settled \\d+ events/s \\(acked \\d+ deliveries/s\\), JVM CPU \\d+ us per settled event, 1-client"
        + " p50 [0-9.]+ ms\n";
    // two rounds alternate the order, a seed each, 10 apart
    assertTrue(report.matches("(?s).*peers, side by side: store first \\(S\\) beside the store-first design by hand"
        + " \\(hs\\), INLINE \\(I\\) beside the inline design by hand \\(h\\), each with 4 workers or 2 connections,"
        + " one server; 2 rounds alternating h hs S I, I S hs h, each run drained before the next:\n"
        + "  h1 \\(seed 5011\\)     " + run + "  hs1 \\(seed 5021\\)    " + run + "  S1 \\(seed 5031\\)     " + run
        + "  I1 \\(seed 5041\\)     " + run + "  I2 \\(seed 5051\\)     " + run + "  S2 \\(seed 5061\\)     " + run
        + "  hs2 \\(seed 5071\\)    " + run + "  h2 \\(seed 5081\\)     " + run
        + "  S/hs settled       [0-9.]+ \\(median of 2 rounds; range [0-9.]+-[0-9.]+; target >= 0.9\\)\n"
        + "  S/hs CPU           [0-9.]+ \\(median of 2 rounds; range [0-9.]+-[0-9.]+; target <= 1.1\\)\n"
        + "  S/hs p50           [0-9.]+ \\(median of 2 rounds; range [0-9.]+-[0-9.]+; target <= 1.2\\)\n"
        + "  I/h settled        [0-9.]+ \\(median of 2 rounds; range [0-9.]+-[0-9.]+; target >= 0.9\\)\n"
        + "  I/h CPU .*"), report);
    // every design's effects: each event applied once, the warm-up's, the runs' and the lone clients' alike
    for (String design : new String[] {"h ", "hs", "S ", "I "}) {
      assertTrue(report.contains("  effects, " + design + "        exactly once: balances, commit counts and orders match"
          + " the distinct events\n"), report);
    }
    assertEquals("h hs S I, I S hs h, h hs S I", PeersPhase.order(3));
  }

  @Test
  void benchOnATinyLoadReportsItsMeasurementsAndExactlyOnceEffects() {
    Report bench = bench("--deliveries", "45", "--duplicates", "0.2", "--clients", "3", "--max-seconds", "60",
        "--warmup", "30");
    String report = bench.text();
    assertEquals(0, bench.code(), report);
    assertTrue(report.startsWith("hookledger bench: 45 deliveries (36 distinct events, 20% redeliveries), 3 clients in a"
        + " second process, 256 entities"), report);
    assertTrue(report.contains("  answers            36 x 200 accepted, 9 x 200 duplicate\n"), report);
    assertTrue(report.matches("(?s).*throughput         \\d+ deliveries/s \\(45 in [0-9.]+ s\\).*"), report);
    assertTrue(report.matches("(?s).*accept latency     p50 [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms.*"), report);
    assertTrue(report.contains("every event settled"), report);
    assertTrue(report.matches("(?s).*warm-up            30 deliveries received in [0-9.]+ s, settled after [0-9.]+ s \\(not measured\\).*"),
        report);
    assertTrue(report.matches("(?s).*raw limit \\(a\\)      \\d+ durable single-row inserts/s over 3 connections \\(45 in .*"), report);
    assertTrue(report.matches("(?s).*raw, half load     \\d+ durable single-row inserts/s over 1 connections \\(22 in .*"), report);
    assertTrue(report.matches("(?s).*acked \\(b\\)/\\(a\\)      [0-9.]+ of the raw limit.*"), report);
    assertTrue(report.matches("(?s).*inline, db \\(i\\)     \\d+ events/s settled \\(45 deliveries in [0-9.]+ s, p50 .*"), report);
    assertTrue(report.matches("(?s).*hand-written \\(h\\)   \\d+ events/s settled \\(\\d+ deliveries/s over HTTP\\), [0-9.]+ of \\(i\\).*"),
        report);
    assertTrue(report.matches("(?s).*while processing   p50 [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms with 1 clients.*"), report);
    assertTrue(report.matches("(?s).*JVM CPU            \\d+ us per settled event \\(the server's JVM.*"), report);
    assertTrue(report.matches("(?s).*targets            settled \\(c\\)/\\(i\\) [0-9.]+ \\(target >= 0.8\\), \\(c\\)/\\(h\\) [0-9.]+,"
        + " \\(h\\)/\\(i\\) [0-9.]+; acked \\(b\\)/\\(a\\) [0-9.]+ \\(target >= 0.8\\).*"), report);
    assertTrue(report.matches("(?s).*    1-client p50     [0-9.]+x one raw insert idle, [0-9.]+x while processing"
        + " \\(target <= 1.5\\), [0-9.]+x a raw insert while processing;.*"), report);
    assertTrue(report.matches("(?s).*raw, 1 client busy \\d+ durable single-row inserts/s over 1 connections \\(50 in .*"),
        report);
    assertTrue(report.matches("(?s).*settled \\(c\\)/\\(a\\)    [0-9.]+ of the raw limit.*"), report);
    assertTrue(report.matches("(?s).*at half load       p50 [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms with 1 clients.*"), report);
    assertTrue(report.matches("(?s).*at 1 client        p50 [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms with 1 clients.*"), report);
    assertTrue(report.contains("  heap used          peak "), report);
    assertTrue(report.contains("  effects            exactly once"), report);
  }

  @Test
  void benchWithHistoryMeasuresTheSameLoadOnAFilledLedgerBesideAnEmptyOneInAlternatingRounds() {
    String report = successfulReport("--deliveries", "30", "--clients", "3", "--max-seconds", "60", "--warmup", "0",
        "--history", "1001");
    assertTrue(report.contains("  history            1001 of 1001 settled events written"), report);
    // the five indexes on the event table that neither back its key nor cover a status: dropped for the
    // fill, rebuilt after it (rebuilding fails the bench if a definition no longer applies)
    assertTrue(report.matches("(?s).*  history            5 indexes rebuilt \\(\\d+ s\\)\n.*"), report);
    assertTrue(report.matches("(?s).*  history            \\d+ count changes left to fold \\(\\d+ s\\)\n.*"), report);
    assertTrue(report.matches("(?s).*  history            1001 settled events in \\d+ s, ledger \\d+ MiB \\(database history,"
        + " server http://127.0.0.1:\\d+\\)\n.*"), report);
    // ABBA by default (2 pairs): E H, H E, a seed of its own each, 100 apart
    String run = "acked \\d+ deliveries/s, settled \\d+ events/s, p50 [0-9.]+ ms, p99 [0-9.]+ ms\n";
    assertTrue(report.matches("(?s).*side by side, the same load on an empty ledger \\(E\\) and on 1001 settled events \\(H\\),"
        + " one server, a runtime each; 2 pairs alternating E H, H E, each run drained before the next:\n"
        + "  E1 \\(seed 101\\)      " + run + "  H1 \\(seed 201\\)      " + run + "  H2 \\(seed 301\\)      " + run
        + "  E2 \\(seed 401\\)      " + run
        + "  acked hist/empty   [0-9.]+ \\(median of 2 pairs; range [0-9.]+-[0-9.]+\\)\n"
        + "  settled hist/empty [0-9.]+ \\(median of 2 pairs; range [0-9.]+-[0-9.]+\\)\n"
        + "  p50 hist/empty     [0-9.]+ \\(median of 2 pairs; range [0-9.]+-[0-9.]+\\)\n"
        + "  p99 hist/empty     [0-9.]+ \\(median of 2 pairs; range [0-9.]+-[0-9.]+\\)\n"
        + "  database, empty    [0-9.]+ KiB of WAL, [0-9.]+ updates of the event row per event \\(\\d+% HOT\\)\n"
        + "  database, history  [0-9.]+ KiB of WAL, .*"), report);
    assertTrue(report.matches("(?s).*operator reads     status \\d+/\\d+ ms, backlog \\(/healthz\\) \\d+/\\d+ ms, chart \\d+/\\d+ ms,"
        + " list \\d+/\\d+ ms,( list --status [a-z]+ \\d+/\\d+ ms,)* list --status stuck \\d+/\\d+ ms,( GET /admin/[a-z.]* \\d+/\\d+ ms,)+ GET /healthz \\d+/\\d+ ms \\(median/p95 of 20\\)\n.*"),
        report);
    assertTrue(report.matches("(?s).*prune of events settled over 9 days ago, while one client sends:\n  pruned             \\d+ events"
        + " in \\d+ batches.*p99 during/without [0-9.]+\\).*"), report);
    assertTrue(report.contains("  effects, history   exactly once"), report);
    assertTrue(report.contains("  effects            exactly once"), report);
  }

  @Test
  void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwoAndRoundsAlternateABBA() {
    assertEquals(0.8, SideBySide.median(new double[] {0.5, 0.8, 1.1}), 1e-9);
    assertEquals(0.75, SideBySide.median(new double[] {0.5, 0.7, 0.8, 1.1}), 1e-9);
    assertEquals("E H, H E, E H, H E", SideBySide.order(4));
  }

  @Test
  void benchWithBackfillMeasuresOneClientBesideABackfillAndWithBookkeepingABTheRecordsCost() {
    String report = successfulReport("--deliveries", "30", "--clients", "3", "--max-seconds", "60", "--warmup", "0",
        "--backfill", "200", "--bookkeeping-ab");
    assertTrue(report.contains("  backfill           200 settled stripe events of type bench.backfill stored in "), report);
    assertTrue(report.matches("(?s).*    backfilled       done: 200 applied, 0 skipped, 0 failed in [0-9.]+ s.*"), report);
    assertTrue(report.matches("(?s).*    backfill/idle    p50 [0-9.]+x, p99 [0-9.]+x \\(target <= 1.5\\)\n.*"), report);
    assertTrue(report.contains("    probe effects    each stored event applied exactly once\n"), report);
    assertEquals(2, report.split("  with record        ").length - 1, report);
    assertEquals(2, report.split("  without record     ").length - 1, report);
    assertTrue(report.matches("(?s).*  bookkeeping        [0-9.]+ \\(settled/s with the record / without, A/B/A/B means\\).*"),
        report);
    assertTrue(report.contains("  effects            exactly once"), report);
  }

  @Test
  void benchInInlineModeBesideTheStoreFirstFloorReportsTheFloorAndExactlyOnceEffects() {
    String report = successfulReport("--deliveries", "30", "--clients", "3", "--max-seconds", "60", "--warmup", "0",
        "--mode", "INLINE", "--floor");
    assertTrue(report.matches("(?s).*  server             http://127.0.0.1:\\d+, 4 workers, inline\n.*"), report);
    assertTrue(report.contains("  answers            6 x 200 duplicate, 24 x 200 processed\n"), report);
    assertTrue(report.matches("(?s).*floor, db \\(f\\)      \\d+ events/s settled \\(30 deliveries in [0-9.]+ s, p50 .*\\), [0-9.]+ of"
        + " \\(i\\): ledger row in one transaction, then claim, effect and settle in a second, over 3 JDBC connections\n.*"),
        report);
    assertTrue(report.matches("(?s).*raw, floor busy    \\d+ durable single-row inserts/s over 3 connections \\(30 in [0-9.]+ s\\),"
        + " p50 [0-9.]+ ms, [0-9.]+ of the same loop just before \\(\\d+/s, p50 [0-9.]+ ms\\), while 4 connections settled"
        + " \\d+ events as \\(f\\) does .*"), report);
    assertTrue(report.matches("(?s).*    floor            \\(f\\)/\\(i\\) [0-9.]+: what any store-first design reaches here;"
        + " \\(c\\)/\\(f\\) [0-9.]+: what hookledger loses to it; raw while \\(f\\) processes / raw idle [0-9.]+: what"
        + " any store-first design's acks keep \\(target >= 0.8 of \\(b\\)/\\(a\\)\\)\n.*"), report);
    assertTrue(report.matches("(?s).*hand-written \\(h\\)   .* on HikariCP; JVM CPU \\d+ us per settled event\n.*"), report);
    assertTrue(report.contains("  effects            exactly once"), report);
  }

  @Test
  void benchWithHandlersThatDoNothingSettlesEveryEventWithTheLoadGeneratorPinned() {
    String report = successfulReport("--deliveries", "30", "--clients", "3", "--max-seconds", "60", "--warmup", "0",
        "--noop-handlers", "--load-cpus", "0");
    assertTrue(report.matches("(?s).*  load generator     pinned to CPUs 0 \\(taskset\\); this process to [0-9,-]+\n.*"), report);
    assertTrue(report.matches("(?s).*  server             http://127.0.0.1:\\d+, 4 workers, store first, handlers that do"
        + " nothing\n.*"), report);
    assertTrue(report.contains("  answers            24 x 200 accepted, 6 x 200 duplicate\n"), report);
    assertTrue(report.contains("every event settled"), report);
    assertTrue(report.contains("  effects            not checked: --noop-handlers apply none (every event settled)\n"),
        report);
  }

  @Test
  void refusesALoadCpuListTasksetCannotReadNamingTheValue() {
    String err = refused("--load-cpus", "one");
    assertTrue(err.startsWith("load-cpus must be a CPU list such as 1 or 0-1,3, but was one"), err);
  }

  @Test
  void sendsToAServerAlreadyRunningWithTheSecretsServeReads() throws Exception {
    SampleSecrets secrets = SampleSecrets.generate();
    Map<String, String> env = Map.of(SampleSecrets.STRIPE_ENV, secrets.stripe(), SampleSecrets.GITHUB_ENV,
        secrets.github(), SampleSecrets.SHOPIFY_ENV, secrets.shopify());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code;
    try (SampleDatabase database = SampleDatabase.temporary(false);
        SampleApp app = SampleApp.start(database, secrets, "127.0.0.1", 0, b -> b);
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      code = new CommandLine(new BenchCommand(out, env)).execute("--target", app.uri().toString(),
          "--deliveries", "30", "--clients", "3", "--warmup", "6", "--max-seconds", "60");
      String report = bytes.toString(StandardCharsets.UTF_8);
      assertEquals(0, code, report);
      assertTrue(report.startsWith("hookledger bench: 30 deliveries (24 distinct events, 20% redeliveries), 3 clients, to "
          + app.uri()), report);
      assertTrue(report.contains("  answers            24 x 200 accepted, 6 x 200 duplicate\n"), report);
      assertTrue(report.matches("(?s).*at 1 client        p50 [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms with 1 clients.*"),
          report);
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (app.admin().backlog().waiting() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(0, app.admin().backlog().waiting(), "the server settled every event it acknowledged");
    }
  }

  @Test
  void answersOtherThan200MakeTheTargetRunFail() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (SampleDatabase database = SampleDatabase.temporary(false);
        SampleApp app = SampleApp.start(database, SampleSecrets.generate(), "127.0.0.1", 0, b -> b);
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      // other secrets than the server's: every delivery is refused
      int code = new CommandLine(new BenchCommand(out, Map.of())).execute("--target", app.uri().toString(),
          "--deliveries", "6", "--clients", "2", "--warmup", "0", "--max-seconds", "60");
      String report = bytes.toString(StandardCharsets.UTF_8);
      assertEquals(1, code, report);
      assertTrue(report.contains("  answers            6 x 401"), report);
    }
  }

  @Test
  void refusesALoadBeyondItsBoundsNamingTheValue() {
    String err = refused("--deliveries", "5000000");
    assertTrue(err.startsWith("deliveries must be between 1 and 200000, but was 5000000"), err);
  }

  @Test
  void benchOfOneProviderSendsOnlyItsEventsAndSettlesEachOnce() {
    String report = successfulReport("--deliveries", "30", "--clients", "3", "--max-seconds", "60", "--warmup", "0",
        "--provider", "github", "--entities", "4");
    assertTrue(report.startsWith("hookledger bench: 30 deliveries (24 distinct events, 20% redeliveries), 3 clients in a"
        + " second process, 4 entities, github only, loopback HTTP\n"), report);
    assertTrue(report.contains("  answers            24 x 200 accepted, 6 x 200 duplicate\n"), report);
    assertTrue(report.contains("  effects            exactly once"), report);
  }

  @Test
  void refusesAProviderItCannotSendNamingTheValue() {
    String err = refused("--provider", "paypal");
    assertTrue(err.startsWith("provider must be one of stripe, github, shopify, but was paypal"), err);
  }

  @Test
  void refusesNoEntitiesNamingTheValue() {
    String err = refused("--entities", "0");
    assertTrue(err.startsWith("entities must be between 1 and 1000000, but was 0"), err);
  }

  @Test
  void refusesAHistoryBeyondItsBoundsNamingTheValue() {
    String err = refused("--history", "-1");
    assertTrue(err.startsWith("history must be between 0 and 100000000, but was -1"), err);
  }

  @Test
  void refusesNoRoundsNamingTheValue() {
    String err = refused("--history", "10", "--rounds", "0");
    assertTrue(err.startsWith("rounds must be between 1 and 20, but was 0"), err);
  }

  /** What the bench writes to standard error when it refuses {@code args}, which it asserts exited 2. */
  private static String refused(String... args) {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand(System.out));
    cli.setErr(new java.io.PrintWriter(err));
    assertEquals(2, cli.execute(args));
    return err.toString();
  }

  /** Runs the bench in this JVM with {@code args}; returns its report, which it asserts exited 0. */
  private static String successfulReport(String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      code = new CommandLine(new BenchCommand(out)).execute(args);
    }
    String report = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, report);
    return report;
  }

  /** What a bench run printed, and its exit code. */
  private record Report(int code, String text) {}

  /** Runs bench with {@code args}, its report captured. */
  private static Report bench(String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      code = new CommandLine(new BenchCommand(out)).execute(args);
    }
    return new Report(code, bytes.toString(StandardCharsets.UTF_8));
  }
}
