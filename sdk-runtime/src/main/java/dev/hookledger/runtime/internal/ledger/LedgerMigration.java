package dev.hookledger.runtime.internal.ledger;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One versioned script of the ledger's schema, {@code db/hookledger/V<n>__<name>.sql}, as Flyway
 * names and reads it: a script with a {@code .sql.conf} beside it saying
 * {@code executeInTransaction=false} holds statements that cannot run in a transaction
 * ({@code CREATE INDEX CONCURRENTLY}) and is run one statement at a time; any other runs whole, in
 * one transaction.
 *
 * @param version the {@code <n>} of the file name
 * @param description the {@code <name>}, underscores as spaces, as Flyway shows it
 * @param inTransaction false if the script must run outside a transaction
 */
public record LedgerMigration(int version, String description, boolean inTransaction, String script) {
  /** Where the scripts are, on the class path and for Flyway's {@code locations}. */
  public static final String LOCATION = "db/hookledger";

  // initialised before ALL, which loads with them
  /** The schema name as the scripts spell it: before a dot, or after CREATE SCHEMA IF NOT EXISTS. */
  private static final Pattern SCHEMA = Pattern.compile("(?<=SCHEMA IF NOT EXISTS )hookledger\\b|\\bhookledger(?=\\.)");
  private static final Pattern NAME = Pattern.compile("V(\\d+)__(\\w+)");

  /** Every script, in version order: the one list {@link SchemaMigrator} applies. Add new ones here. */
  public static final List<LedgerMigration> ALL = List.of(
      load("V1__ledger"),
      load("V2__status_counts"),
      load("V3__operator_indexes"),
      load("V4__attempts"),
      load("V5__search_indexes"),
      load("V6__refusal_counts"),
      load("V8__handler_bookkeeping"),
      load("V9__statement_counts"),
      load("V10__minute_counts"),
      load("V11__delivery_id_hash"),
      load("V12__backfill_cursor_index"),
      load("V13__minute_roll_up"),
      load("V14__row_counts"),
      load("V15__outbox"),
      load("V16__effect_list_after_commit"),
      load("V17__dead_settled_index"),
      load("V18__failing_index"),
      load("V19__effect_due_index"),
      load("V20__roll_up_bound"),
      load("V21__roll_up_lock"),
      load("V22__status_roll_up"));


  /** The newest version this build knows. */
  public static int latest() {
    return ALL.get(ALL.size() - 1).version();
  }

  /** The script as it is run: comments removed, every schema reference quoted and renamed to {@code schema}. */
  public String sql(String schema) {
    return SCHEMA.matcher(SqlComments.strip(script)).replaceAll(Matcher.quoteReplacement('"' + schema + '"'));
  }

  /**
   * The statements of {@link #sql}, one by one, for a script run outside a transaction. Such scripts
   * hold plain statements only (no function bodies, no semicolon in a literal), which the split relies on.
   */
  public List<String> statements(String schema) {
    List<String> out = new ArrayList<>();
    for (String s : sql(schema).split(";")) {
      if (!s.isBlank()) {
        out.add(s.strip());
      }
    }
    return out;
  }

  /** {@code V3 (operator indexes)}, for logs and messages. */
  @Override
  public String toString() {
    return "V" + version + " (" + description + ")";
  }

  private static LedgerMigration load(String name) {
    Matcher m = NAME.matcher(name);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a Flyway migration name: " + name);
    }
    String script = read(LOCATION + "/" + name + ".sql", true);
    String conf = read(LOCATION + "/" + name + ".sql.conf", false);
    boolean inTransaction = conf == null || !conf.lines().map(String::strip).toList()
        .contains("executeInTransaction=false");
    if (!inTransaction && script.contains("$")) {
      // the statement split above would cut a function body or a literal holding a semicolon
      throw new IllegalStateException(name + ".sql runs outside a transaction and must hold plain statements only");
    }
    return new LedgerMigration(Integer.parseInt(m.group(1)), m.group(2).replace('_', ' '), inTransaction, script);
  }

  static String read(String resource, boolean required) {
    // through the class, not its loader: on the module path a loader finds no resource in a module's
    // package-shaped directory (db/hookledger), the module's own class does
    try (InputStream in = LedgerMigration.class.getResourceAsStream("/" + resource)) {
      if (in == null) {
        if (required) {
          throw new IllegalStateException(resource + " is missing from the class path");
        }
        return null;
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
