package dev.hookledger.samples.jmh;

import static dev.hookledger.runtime.internal.ledger.EventTable.ATTEMPTS;
import static dev.hookledger.runtime.internal.ledger.EventTable.EVENT_ID;
import static dev.hookledger.runtime.internal.ledger.EventTable.LAST_ERROR;
import static dev.hookledger.runtime.internal.ledger.EventTable.LEASE_OWNER;
import static dev.hookledger.runtime.internal.ledger.EventTable.LEASE_UNTIL;
import static dev.hookledger.runtime.internal.ledger.EventTable.MAX_ATTEMPTS;
import static dev.hookledger.runtime.internal.ledger.EventTable.PROVIDER;
import static dev.hookledger.runtime.internal.ledger.EventTable.SCOPE;
import static dev.hookledger.runtime.internal.ledger.EventTable.SETTLED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.STATUS;
import static dev.hookledger.runtime.internal.ledger.EventTable.TYPE;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.HeaderRedaction;
import dev.hookledger.runtime.internal.ledger.HeadersJson;
import dev.hookledger.runtime.internal.ledger.LeaseClaimer;
import dev.hookledger.runtime.internal.ledger.ProcessingRows;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Statement building on the processing path, as the runtime does it today: the claim's statements
 * ({@link LeaseClaimer}) and the settle's ({@link ProcessingRows}) are rendered by jOOQ once, when
 * the runtime starts, and bound by hand per call; these measure that rendering, so that what a path
 * would pay rendering per call is known. Beside them, one event's insert rendered per call with its
 * values, as jOOQ renders a statement built per request. Not a test: run it with the command in
 * docs/development.md ("Micro-benchmarks").
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StatementBenchmark {
  private final DSLContext render = DSL.using(SQLDialect.POSTGRES, new Settings().withRenderFormatted(false));
  private final EventTable events = new EventTable("hookledger");
  private long n;

  /** What a GitHub push delivery's adapter keeps, and its signature, which the column never holds. */
  static final Map<String, String> HEADERS = headers();

  private static Map<String, String> headers() {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("X-GitHub-Event", "push");
    h.put("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958");
    h.put("X-GitHub-Hook-ID", "292430182");
    h.put("X-GitHub-Hook-Installation-Target-ID", "79929171");
    h.put("X-GitHub-Hook-Installation-Target-Type", "repository");
    h.put("X-Hub-Signature-256", "sha256=d57c68ca6f92289e6987922ff26938930f6e66a2d161ef06abdf1859230aa23c");
    h.put("User-Agent", "GitHub-Hookshot/044aadd");
    return h;
  }

  /** The claim's statements (due rows, take due rows, and their per-scope forms), rendered as the runtime's start does. */
  @Benchmark
  public LeaseClaimer renderClaimStatements() {
    return new LeaseClaimer(render, events);
  }

  /** The settle's statements (the fenced update, with the handlers' record), rendered as the runtime's start does. */
  @Benchmark
  public ProcessingRows renderSettleStatements() {
    return new ProcessingRows(render, events, 5);
  }

  /**
   * The settle of an {@code INLINE} event, built and rendered with its values each call, as the
   * request thread built it for every {@code INLINE} event until the insert settled the row itself;
   * now only for an {@code INLINE} attempt that ends {@code stale} or {@code ignored}.
   */
  @Benchmark
  public String renderInlineSettlePerCall() {
    long i = n++;
    return render.update(events.table())
        .set(STATUS, "done")
        .set(ATTEMPTS, 1)
        .set(MAX_ATTEMPTS, 12)
        .set(SETTLED_AT, DSL.field("statement_timestamp()", SQLDataType.INSTANT))
        .setNull(LAST_ERROR)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .where(EventTable.is(new EventKey("stripe", "", "evt_" + i)))
        .getSQL();
  }

  /**
   * A GitHub delivery's kept headers as the ledger's {@code headers} column, written as the runtime
   * writes them for every delivery (by hand, {@code HeadersJson.write}), on the group-commit writer or
   * an {@code INLINE} request thread.
   */
  @Benchmark
  public String headersColumn() {
    return HeadersJson.write(HEADERS).data();
  }

  /** The same column text written by the application's mapper, as the runtime wrote it before. */
  @Benchmark
  public String headersColumnByMapper() throws JsonProcessingException {
    return Json.MAPPER.writeValueAsString(HeaderRedaction.strip(HEADERS));
  }

  /** One event's insert, built and rendered with its values each call (a statement built per request). */
  @Benchmark
  public String renderInsertPerCall() {
    long i = n++;
    return render.insertInto(events.table(), PROVIDER, SCOPE, EVENT_ID, TYPE)
        .values("stripe", "", "evt_" + i, "invoice.paid")
        .onConflict(PROVIDER, SCOPE, EVENT_ID).doNothing()
        .getSQL();
  }
}
