package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.RefusalReason;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.internal.admin.BoundedReads;
import dev.hookledger.runtime.internal.admin.DurationText;
import dev.hookledger.runtime.internal.ledger.AfterCommitFailureRows;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.GroupCommit;
import dev.hookledger.runtime.internal.ledger.Ledger;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.ledger.LedgerMigration;
import dev.hookledger.runtime.internal.ledger.RefusalCountRows;
import dev.hookledger.runtime.internal.ledger.SchemaMigrator;
import dev.hookledger.runtime.internal.receive.ReplayRecorder;
import dev.hookledger.spi.ListedEvent;
import dev.hookledger.spi.ReplayReport;
import dev.hookledger.spi.ReplaySource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's view of the ledger: status, listing, one event in full, retrying dead and failing
 * events (one, or a selection bound to its confirmed count), pruning settled history, applying the schema and replaying missed events. The command line
 * ({@code dev.hookledger.runtime.cli.HookledgerCli}), the admin page
 * ({@link dev.hookledger.runtime.admin.web.AdminServlet}) and the Micrometer
 * backlog gauges all go through this class.
 *
 * <pre>{@code
 * InboxAdmin admin = InboxAdmin.builder(dataSource).schema("hookledger").build();
 * admin.status().dead();                                   // how many wait for an operator
 * admin.list(EventQuery.builder().status(EventStatus.DEAD).build()); // which, with their errors
 * admin.list(EventQuery.builder().status(StatusFilter.FAILING).build()); // failing, not dead yet
 * admin.retryDead(admin.backlog().dead());                  // after fixing the handler, as confirmed
 * RetrySelection s = RetrySelection.failing().provider("stripe"); // after an outage: not one at a time
 * admin.retry(s, admin.retryCount(s));                      // the count shown, confirmed
 * admin.prune(InboxAdmin.DEFAULT_PRUNE_WINDOW, false);     // nightly
 * admin.outbox().destinations();                           // effects: backlog, breaker, pause
 * }</pre>
 *
 * <p>Thread-safe; holds no connection between calls. Every database failure is thrown as
 * {@link dev.hookledger.LedgerUnavailableException} with the database's reason; a refused operation
 * as {@link OperationRefusedException}, having changed nothing.
 */
public final class InboxAdmin {
  private static final Logger log = LoggerFactory.getLogger(InboxAdmin.class);

  /**
   * The prune window used when none is given: 30 days. Stripe lets an event be resent by hand (its
   * CLI) and listed by its events API, which replay reads, for 30 days; an id pruned earlier than
   * that would be recorded and processed again if it came back.
   */
  public static final Duration DEFAULT_PRUNE_WINDOW = Duration.ofDays(30);

  /**
   * The shortest prune window accepted without {@code force}: 3 days, the longest automatic
   * redelivery window (Stripe retries live events for up to 3 days; GitHub redelivers, by hand,
   * deliveries of the last 3 days; Shopify retries for 4 hours). An id pruned within it can come
   * back from the provider and would be processed twice.
   */
  public static final Duration DEFAULT_MINIMUM_PRUNE_WINDOW = Duration.ofDays(3);

  /**
   * The stuck threshold used when none is given: 2 minutes. A live worker takes a due event within
   * its poll interval (1 s by default) and an expired lease as soon as it is due; an event due for
   * minutes is not being taken by anyone.
   */
  public static final Duration DEFAULT_STUCK_AFTER = Duration.ofMinutes(2);

  /**
   * The most events one bulk retry ({@link #retry(RetrySelection, long)}) takes: 10,000, so that it
   * is one bounded statement and one short transaction. A larger selection is refused; narrow it by
   * provider, type or cause.
   */
  public static final int MAX_BULK_RETRY = 10_000;

  /** How far back {@link #refusedCounts()} reads: nodes that refused nothing for 24 hours are not summed. */
  public static final Duration REFUSALS_WINDOW = Duration.ofHours(24);

  private final EventTable events;
  private final Clock clock;
  private final Duration minimumPruneWindow;
  private final DSLContext db;
  private final DataSource dataSource;
  private final StatusReader statusReader;
  private final EventReader eventReader;
  private final EventRetrier retrier;
  private final BulkRetrier bulk;
  private final SettledPruner pruner;
  private final ThroughputReader throughput;
  private final CauseReader causes;
  private final RefusalCountRows refusalCounts;
  private final AfterCommitFailureRows afterCommitFailures;
  private final int maxAttempts;
  private final Duration stuckAfter;
  private final BoundedReads reads;
  private final BackfillRecords backfills;
  private final Set<String> handlers;
  private final OutboxAdmin outbox;

  private InboxAdmin(Builder b) {
    this.events = new EventTable(b.schema);
    this.clock = b.clock;
    this.minimumPruneWindow = b.minimumPruneWindow;
    this.db = LedgerDsl.on(b.dataSource);
    this.dataSource = b.dataSource;
    this.maxAttempts = b.maxAttempts;
    this.stuckAfter = b.stuckAfter;
    this.statusReader = new StatusReader(db, events, clock, stuckAfter);
    this.eventReader = new EventReader(db, events, new EventViews(b.maxAttempts, b.stuckAfter), b.stuckAfter);
    this.retrier = new EventRetrier(db, events, eventReader);
    this.bulk = new BulkRetrier(db, events, retrier);
    this.pruner = new SettledPruner(db, events, b.pruneBatchSize);
    this.throughput = new ThroughputReader(db, events, clock);
    this.causes = new CauseReader(db, events);
    this.refusalCounts = new RefusalCountRows(b.schema);
    this.afterCommitFailures = new AfterCommitFailureRows(b.schema);
    this.backfills = new BackfillRecords(events);
    this.handlers = b.handlers;
    this.reads = BoundedReads.of(b.readTimeout, "hookledger-" + b.schema + "-admin-read");
    this.outbox = new OutboxAdmin(db, b.schema, clock, reads, b.rates);
  }

  /**
   * The outbox's side of the ledger: effects per destination, an event's effects and their
   * attempts, retrying effects, pausing and resuming destinations. Never null.
   */
  public OutboxAdmin outbox() {
    return outbox;
  }

  /** A read the page, the health check and the CLI wait for at most the read timeout. */
  private <T> T read(Supplier<T> work) {
    return reads.read(() -> LedgerErrors.guard(events.schema(), work));
  }

  /** Starts building an admin over the ledger in {@code dataSource}. */
  public static Builder builder(DataSource dataSource) {
    return new Builder(dataSource);
  }

  /** The ledger's schema name. */
  public String schema() {
    return events.schema();
  }

  /** The most attempts an event gets, as configured: the N of "attempt k of N". */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** How long a waiting event may be due and not taken before it counts as stuck. */
  public Duration stuckAfter() {
    return stuckAfter;
  }

  /**
   * Counts per provider and status, the oldest waiting event's age, failing, stuck and dead events
   * and duplicate deliveries: the finished ones from the counts the ledger keeps, the waiting ones
   * from at most {@value InboxStatus#COUNTED} + 1 waiting rows, the failing ones through their own
   * index (see {@link InboxStatus} for what a figure above the bound means). For a frequently polled
   * gauge use {@link #backlog()}, which reads less.
   */
  public InboxStatus status() {
    return read(statusReader::status);
  }

  /**
   * Waiting and dead counts and the oldest waiting age: the waiting rows through their partial index,
   * at most {@value InboxStatus#COUNTED} + 1 of them, the dead ones from the ledger's counts (as
   * {@link #status()} has them).
   */
  public Backlog backlog() {
    return read(statusReader::backlog);
  }

  /** Events received and settled per minute over the last hour, by the admin's clock; for a chart. */
  public Throughput throughput() {
    return read(throughput::lastHour);
  }

  /**
   * Failing and dead events grouped by root cause, most events first ({@code 12 events:
   * PSQLException: ...}): of the newest {@value CauseReader#READ} of them, through the partial indexes.
   */
  public List<CauseCount> causes() {
    return read(causes::causes);
  }

  /**
   * Deliveries refused by the runtimes on this ledger, per provider and reason, most first: each
   * node's count since it started, summed over the nodes that refused one in the last
   * {@link #REFUSALS_WINDOW} by the admin's clock. Nodes write their counts every 2 s, only when they
   * changed (never once per request), so the table read is a few rows a node; never null, empty if
   * none.
   */
  public List<RefusedCount> refusedCounts() {
    return read(() -> refusalCounts.since(db, clock.instant().minus(REFUSALS_WINDOW)).stream()
        .filter(s -> known(s.reason())) // a reason a newer build wrote, which this one cannot name
        .map(s -> new RefusedCount(s.provider(), RefusalReason.valueOf(s.reason()), s.refused(), s.lastAt()))
        .toList());
  }

  /**
   * The {@code afterCommit} actions that threw on the runtimes of this ledger, per provider, by
   * provider: each was lost (an {@code afterCommit} action is at most once and is not run again).
   * One row a provider; never null, empty if none ever failed.
   */
  public List<AfterCommitFailureCount> afterCommitFailures() {
    return read(() -> afterCommitFailures.all(db).stream()
        .map(r -> new AfterCommitFailureCount(r.provider(), r.failures(), r.lastAt(), r.lastEventId(), r.lastError()))
        .toList());
  }

  private static boolean known(String reason) {
    return Arrays.stream(RefusalReason.values()).anyMatch(r -> r.name().equals(reason));
  }

  /** One page of events matching {@code query}, newest received first. */
  public EventPage list(EventQuery query) {
    requireNonNull(query, "query");
    return read(() -> eventReader.list(query));
  }

  /**
   * One event in full: headers (never signature-like ones: any header whose name contains
   * {@code signature}, {@code hmac}, {@code authorization}, {@code token} or {@code secret} is
   * dropped), body as UTF-8 text, attempts, last error and the id of the secret that matched.
   *
   * @param scope the event's scope; empty where the provider has none
   * @return empty if the ledger has no such event
   */
  public Optional<EventDetail> show(String provider, String scope, String eventId) {
    requireKey(provider, scope, eventId);
    return read(() -> eventReader.show(provider, scope, eventId));
  }

  /**
   * As {@link #show}, for a command that names an event it expects.
   *
   * @throws OperationRefusedException if the ledger has no such event, saying under which scope
   *     the ledger has the same id, if any ({@code found under scope hook-7: add --scope hook-7})
   */
  public EventDetail showExisting(String provider, String scope, String eventId) {
    requireKey(provider, scope, eventId);
    return read(() -> eventReader.show(provider, scope, eventId)
        .orElseThrow(() -> new OperationRefusedException(eventReader.notFound(new EventKey(provider, scope, eventId)))));
  }

  /**
   * Sets a {@code dead} event back to {@code pending}, available now, with {@code attempts} reset
   * to 0 so that it gets the full retry budget again. Its {@code last_error} is kept until the next
   * attempt replaces it. A {@code pending} event that is not due yet (a failing event backing off)
   * is made due now instead, keeping its attempts: retry now, once its cause is fixed.
   *
   * @throws OperationRefusedException if the event does not exist, is not dead and not backing
   *     off, or is processing
   */
  public void retry(String provider, String scope, String eventId) {
    retry(provider, scope, eventId, false);
  }

  /**
   * Pauses the outbox's destination {@code destination} on every node of the ledger: its effects
   * wait, using no attempts, until {@link #resumeDestination}; effects already being sent finish.
   *
   * @return false if it was paused already
   * @throws OperationRefusedException if no such destination is known, as {@link OutboxAdmin#pause} says
   */
  public boolean pauseDestination(String destination) {
    return outbox.pause(destination);
  }

  /**
   * Resumes a destination paused by {@link #pauseDestination}: its waiting effects are sent at the
   * senders' next poll. A breaker that opened meanwhile keeps its own state.
   *
   * @return false if it was not paused
   * @throws OperationRefusedException if no such destination is known, as {@link OutboxAdmin#resume} says
   */
  public boolean resumeDestination(String destination) {
    return outbox.resume(destination);
  }

  /**
   * As {@link #retry(String, String, String)}; with {@code force}, also a settled event
   * ({@code done}, {@code ignored}, {@code stale}), to run its handlers again after a handler was
   * fixed or added. Forcing a {@code done} event runs effects a second time: the handlers must be
   * idempotent for it. Events still {@code pending} or {@code processing} are always refused.
   *
   * @throws OperationRefusedException if the event does not exist or may not be retried
   */
  public void retry(String provider, String scope, String eventId, boolean force) {
    requireKey(provider, scope, eventId);
    LedgerErrors.guard(events.schema(), () -> {
      retrier.retry(provider, scope, eventId, force);
      return null;
    });
  }

  /**
   * Sets every {@code dead} event back to {@code pending} as {@link #retry(String, String, String)}
   * does, however many there are; returns how many. Where a person confirms, use
   * {@link #retryDead(long)}.
   */
  public int retryDead() {
    return LedgerErrors.guard(events.schema(), retrier::retryDead);
  }

  /**
   * Sets every {@code dead} event back to {@code pending}, all of them, if there are exactly
   * {@code confirmed}: the count the operator was shown ({@link Backlog#dead()},
   * {@link InboxStatus#dead()}) and confirmed. If events died or were retried meanwhile, nothing
   * is retried, so that a confirmation never covers more (or other) events than it said.
   *
   * @return how many were retried: {@code confirmed}
   * @throws OperationRefusedException if the ledger holds another number of dead events, naming it
   */
  public int retryDead(long confirmed) {
    if (confirmed < 0) {
      throw new IllegalArgumentException("confirmed must be >= 0, but was " + confirmed);
    }
    return LedgerErrors.guard(events.schema(), () -> retrier.retryDead(confirmed));
  }

  /**
   * How many events {@code selection} takes now: the number to show the operator and to pass,
   * once confirmed, to {@link #retry(RetrySelection, long)}. Changes nothing.
   *
   * @throws OperationRefusedException if it takes more than {@link #MAX_BULK_RETRY}
   */
  public long retryCount(RetrySelection selection) {
    requireNonNull(selection, "selection");
    return read(() -> bulk.count(selection));
  }

  /**
   * Retries every event {@code selection} takes, if there are exactly {@code confirmed}: failing
   * events backing off are made due now (attempts kept), dead events set back to pending with a
   * full budget, as {@link #retry(String, String, String)} does one; in one transaction and one
   * statement, fenced against workers. If events failed, died, were claimed or retried since the
   * operator saw the count, nothing is retried, so that a confirmation never covers other events
   * than it said.
   *
   * @return how many were retried: {@code confirmed}
   * @throws OperationRefusedException if the selection takes another number of events (naming it),
   *     or more than {@link #MAX_BULK_RETRY}
   */
  public int retry(RetrySelection selection, long confirmed) {
    requireNonNull(selection, "selection");
    if (confirmed < 0) {
      throw new IllegalArgumentException("confirmed must be >= 0, but was " + confirmed);
    }
    return LedgerErrors.guard(events.schema(), () -> bulk.retry(selection, confirmed));
  }

  /**
   * Deletes events settled ({@code done}, {@code ignored}, {@code stale}) more than
   * {@code olderThan} ago, in short batches. Never deletes {@code pending}, {@code processing} or
   * {@code dead} events.
   *
   * @param olderThan the window to keep; {@link #DEFAULT_PRUNE_WINDOW} is the advised value
   * @param force allow a window shorter than the minimum ({@link #DEFAULT_MINIMUM_PRUNE_WINDOW}
   *     unless configured), accepting that a late redelivery of a pruned id is processed twice
   * @throws OperationRefusedException if the window is shorter than the minimum and not forced
   * @throws IllegalArgumentException if the window is zero or negative
   */
  public PruneReport prune(Duration olderThan, boolean force) {
    return prune(olderThan, force, report -> { });
  }

  /**
   * As {@link #prune(Duration, boolean)}, calling {@code progress} after each batch (each its own
   * short transaction, oldest settled first) with the totals so far, for an operator watching a
   * large prune. {@code progress} runs on the calling thread between batches; no lock is held then.
   */
  public PruneReport prune(Duration olderThan, boolean force, Consumer<PruneReport> progress) {
    requireNonNull(progress, "progress");
    Instant cutoff = pruneCutoff(olderThan, force);
    return LedgerErrors.guard(events.schema(), () -> pruner.pruneSettledBefore(cutoff, progress));
  }

  /**
   * A dry run of {@link #prune}: how many settled events it would delete now, with the same
   * checks; deletes nothing.
   *
   * @throws OperationRefusedException if the window is shorter than the minimum and not forced
   */
  public PruneReport prunePreview(Duration olderThan, boolean force) {
    Instant cutoff = pruneCutoff(olderThan, force);
    return LedgerErrors.guard(events.schema(), () -> pruner.countSettledBefore(cutoff));
  }

  private Instant pruneCutoff(Duration olderThan, boolean force) {
    requireNonNull(olderThan, "olderThan");
    if (olderThan.isNegative() || olderThan.isZero()) {
      throw new IllegalArgumentException("olderThan must be positive, but was " + olderThan);
    }
    if (olderThan.compareTo(minimumPruneWindow) < 0) {
      if (!force) {
        throw new OperationRefusedException("refusing to prune events settled less than "
            + DurationText.format(minimumPruneWindow) + " ago (asked: " + DurationText.format(olderThan)
            + "): providers still redeliver them (automatic retries and redelivery by hand last up to 3 days)"
            + " and an id pruned before its last redelivery is processed twice; use a window of at least "
            + DurationText.format(minimumPruneWindow) + ", or pass --force");
      }
      log.warn("pruning with a forced window of {}, below the minimum of {}: a redelivery of a pruned id"
          + " will be processed again", DurationText.format(olderThan), DurationText.format(minimumPruneWindow));
    }
    return clock.instant().minus(olderThan);
  }

  /**
   * Brings the ledger schema to the newest version this build knows, applying each versioned
   * script it lacks ({@code db/hookledger/V1__ledger.sql}, {@code V2__...}) once, in order; changes
   * nothing if it is current. The same migration as {@code WebhookRuntime.migrate()}: serialized
   * with concurrent migrations by an advisory lock; a ledger made before versions were recorded is
   * recognised as version 1.
   *
   * @return true if the ledger's table was created now (the schema was new, or lacked it), false
   *     if it was there already: a typo in the schema name shows as a new ledger being created
   * @throws dev.hookledger.LedgerUnavailableException if the database cannot be reached or refuses
   *     a statement; a version that runs in a transaction was not applied, earlier ones stay
   * @throws IllegalStateException if the ledger is at a version newer than this build knows
   */
  public boolean migrate() {
    return SchemaMigrator.migrate(db, events.schema());
  }

  /**
   * The ledger's schema version: 0 if the schema has no ledger, 1 for a ledger made before versions
   * were recorded, else the highest recorded. {@link #latestSchemaVersion()} is what this build needs.
   */
  public int schemaVersion() {
    return LedgerErrors.guard(events.schema(), () -> SchemaMigrator.version(db, events.schema()));
  }

  /** The schema version this build of hookledger needs and {@link #migrate()} brings a ledger to. */
  public static int latestSchemaVersion() {
    return LedgerMigration.latest();
  }

  /**
   * What {@link #migrate()} would apply now, in order, as SQL; empty if the ledger is current.
   * Changes nothing.
   *
   * @throws IllegalStateException if the ledger is at a version newer than this build knows
   */
  public List<SchemaMigration> pendingMigrations() {
    return LedgerErrors.guard(events.schema(), () -> SchemaMigrator.pending(db, events.schema()).stream()
        .map(m -> new SchemaMigration(m.version(), m.description(), m.inTransaction(), m.sql(events.schema())))
        .toList());
  }

  /** The name of the database the ledger is in ({@code current_database()}), for messages. */
  public String databaseName() {
    return LedgerErrors.guard(events.schema(), () -> db.fetchSingle("select current_database()").get(0, String.class));
  }

  /**
   * Fetches what {@code source}'s provider sent since {@code since} and records each event that
   * the ledger does not have yet as {@code pending} ({@code source = 'replay'}, no secret id), for
   * the workers to process; events already received are skipped. Events are recorded through the
   * receive path's own ledger writer, exactly as a delivery would be. Safe to run again.
   *
   * @return the source's fetch counts, with {@code recorded} and {@code alreadyReceived} as the
   *     ledger counted them
   */
  public ReplayReport replay(ReplaySource source, Instant since, Optional<String> type) {
    requireNonNull(source, "source");
    requireNonNull(since, "since");
    requireNonNull(type, "type");
    ReplayRecorder sink = new ReplayRecorder(new Ledger(db, events,
        GroupCommit.direct(dataSource, events)), ReplayRecorder.LEAVE_PENDING,
        source.provider());
    ReplayReport fetched = LedgerErrors.guard(events.schema(), () -> source.replay(since, type, sink));
    ReplayReport report = new ReplayReport(fetched.fetched(), sink.recorded(), sink.alreadyReceived(),
        fetched.redelivered(), fetched.pages());
    log.info("replay of {} since {}: {}", source.provider(), since, report);
    return report;
  }

  /**
   * Compares what {@code source}'s provider lists for {@code [since, until)} with the ledger,
   * without writing anything (nor asking the provider to redeliver): events the provider has that
   * the ledger lacks, events the ledger has that the provider does not list, and events both have
   * whose status differs.
   *
   * @throws UnsupportedOperationException if the provider's API cannot list its events, saying why
   * @throws dev.hookledger.WebhookException with the provider's error
   */
  public ReconcileReport reconcile(ReplaySource source, Instant since, Instant until) {
    requireNonNull(source, "source");
    requireNonNull(since, "since");
    requireNonNull(until, "until");
    if (!until.isAfter(since)) {
      throw new IllegalArgumentException("until (" + until + ") must be after since (" + since + ")");
    }
    List<ListedEvent> listed = source.list(since, until);
    ReconcileReport report = LedgerErrors.guard(events.schema(),
        () -> new Reconciler(events).reconcile(db, source.provider(), since, until, listed));
    log.info("reconcile of {} from {} to {}: {} listed, {} in the ledger, {} missing, {} unlisted, {} differing",
        source.provider(), since, until, report.listed(), report.ledger(), report.missing().size(),
        report.unlisted().size(), report.differing().size());
    return report;
  }

  /**
   * Counts what a backfill of {@code request} would do, without writing anything
   * ({@code backfill --dry-run}).
   */
  public BackfillPlan planBackfill(BackfillRequest request) {
    requireNonNull(request, "request");
    requireKnownHandlers(request);
    return LedgerErrors.guard(events.schema(), () -> backfills.plan(db, request));
  }

  /**
   * Records a backfill: the named handlers are applied to the stored events {@code request}
   * selects, oldest first, each event in its own transaction, exactly once per handler and event
   * (handlers the ledger records as applied are not run again), by whichever running
   * {@code WebhookRuntime} registers all of them, one node at a time, resuming from its cursor after
   * a restart or on another node. It visits only while few events wait for live processing, at most
   * {@link BackfillRequest#maxPerSecond()}. A handler failure puts the event back in the live queue as
   * a failed attempt: retried by the workers, dead after the last, as any other.
   *
   * @return the backfill as recorded; follow it with {@link #backfill(long)}
   * @throws IllegalArgumentException if this admin knows the registered handlers (one of a runtime,
   *     {@code WebhookRuntime.admin()}) and one of the names is not among them
   */
  public Backfill startBackfill(BackfillRequest request) {
    requireNonNull(request, "request");
    requireKnownHandlers(request);
    Backfill b = LedgerErrors.guard(events.schema(), () -> LedgerDsl.inOwnTransaction(db,
        tx -> backfills.create(tx, request)));
    log.info("backfill {} recorded: handlers {}, {} events selected", b.id(), b.handlers(), b.selected());
    return b;
  }

  /** Every backfill, newest first (the 100 newest). */
  public List<Backfill> backfills() {
    return read(() -> backfills.list(db, 100));
  }

  /** One backfill; empty if there is none of that id. */
  public Optional<Backfill> backfill(long id) {
    return read(() -> backfills.find(db, id));
  }

  /**
   * Stops a running backfill; what it applied stays applied (the event in flight commits or rolls
   * back whole).
   *
   * @return false if no backfill of that id is running
   */
  public boolean cancelBackfill(long id) {
    boolean cancelled = LedgerErrors.guard(events.schema(), () -> LedgerDsl.inOwnTransaction(db,
        tx -> backfills.cancel(tx, id)));
    if (cancelled) {
      log.info("backfill {} cancelled", id);
    }
    return cancelled;
  }

  /**
   * The names of the {@code @OnEvent} handlers registered where this admin runs, sorted: what a
   * backfill can name. Empty if this admin does not know them (one built without
   * {@link Builder#handlers(Set)}, as the command line's); {@code WebhookRuntime.admin()} knows its own.
   */
  public Optional<List<String>> handlerNames() {
    return handlers == null ? Optional.empty() : Optional.of(List.copyOf(new TreeSet<>(handlers)));
  }

  private void requireKnownHandlers(BackfillRequest request) {
    if (handlers == null) {
      return;
    }
    for (String h : request.handlers()) {
      if (!handlers.contains(h)) {
        throw new IllegalArgumentException("no @OnEvent handler is named '" + h + "' (registered: "
            + String.join(", ", new TreeSet<>(handlers)) + ")");
      }
    }
  }

  private static void requireKey(String provider, String scope, String eventId) {
    requireNonNull(provider, "provider");
    requireNonNull(scope, "scope");
    requireNonNull(eventId, "eventId");
  }

  /** Builds an {@link InboxAdmin}; every setter validates and names the bad value. */
  public static final class Builder {
    private final DataSource dataSource;
    private String schema = "hookledger";
    private Clock clock = Clock.systemUTC();
    private Duration minimumPruneWindow = DEFAULT_MINIMUM_PRUNE_WINDOW;
    private int pruneBatchSize = 1000;
    private int maxAttempts = RetryPolicy.defaults().maxAttempts();
    private Duration stuckAfter = DEFAULT_STUCK_AFTER;
    private Duration readTimeout = BoundedReads.DEFAULT_DEADLINE;
    private Set<String> handlers;
    private final Map<String, Double> rates = new TreeMap<>();

    private Builder(DataSource dataSource) {
      this.dataSource = requireNonNull(dataSource, "dataSource");
    }

    /** The ledger's schema; default {@code hookledger}. A lower-case SQL identifier. */
    public Builder schema(String schema) {
      this.schema = EventTable.requireSchemaName(schema);
      return this;
    }

    /** The clock for ages and prune cutoffs; default the system clock. Retried events are due at the database's {@code now()}. */
    public Builder clock(Clock clock) {
      this.clock = requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The shortest prune window accepted without {@code force}; default
     * {@link #DEFAULT_MINIMUM_PRUNE_WINDOW}. Raise it if a provider of yours redelivers for longer.
     */
    public Builder minimumPruneWindow(Duration window) {
      requireNonNull(window, "window");
      if (window.isNegative() || window.isZero()) {
        throw new IllegalArgumentException("minimumPruneWindow must be positive, but was " + window);
      }
      this.minimumPruneWindow = window;
      return this;
    }

    /** Rows deleted per prune statement (and transaction); default 1000. */
    public Builder pruneBatchSize(int size) {
      if (size < 1 || size > 100_000) {
        throw new IllegalArgumentException("pruneBatchSize must be between 1 and 100000, but was " + size);
      }
      this.pruneBatchSize = size;
      return this;
    }

    /**
     * The most attempts an event gets, for "attempt k of N": the {@link RetryPolicy#maxAttempts()}
     * of the runtimes that process this ledger; default that of {@link RetryPolicy#defaults()} (12).
     * {@code WebhookRuntime.admin()} sets its own.
     */
    public Builder maxAttempts(int maxAttempts) {
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be >= 1, but was " + maxAttempts);
      }
      this.maxAttempts = maxAttempts;
      return this;
    }

    /**
     * How long a waiting event may be due and not taken by any worker before it counts as stuck;
     * default {@link #DEFAULT_STUCK_AFTER}. Keep it above the runtimes' poll interval.
     */
    public Builder stuckAfter(Duration after) {
      requireNonNull(after, "after");
      if (after.isNegative() || after.isZero()) {
        throw new IllegalArgumentException("stuckAfter must be positive, but was " + after);
      }
      this.stuckAfter = after;
      return this;
    }

    /**
     * The most a read ({@code status}, {@code backlog}, {@code throughput}, {@code list},
     * {@code show}) waits for the database before it fails with a
     * {@link dev.hookledger.LedgerUnavailableException}, whatever the pool's and the driver's own
     * timeouts: so that health checks and the admin page answer "down" in time when the database
     * stops answering. Positive; default 2 s.
     */
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = BoundedReads.requireDeadline(timeout);
      return this;
    }

    /**
     * The names of the handlers registered where this admin runs, so that a backfill naming another
     * fails at once; {@code WebhookRuntime.admin()} sets its own. Default unknown (the command line):
     * a backfill then waits for a node that registers all of its handlers.
     */
    public Builder handlers(Set<String> names) {
      this.handlers = Set.copyOf(requireNonNull(names, "names"));
      return this;
    }

    /**
     * The outbox's destinations as the runtimes of this ledger configure them, so that
     * {@link OutboxAdmin#destinations()} lists each (with its rate limit) even before it sends;
     * {@code WebhookRuntime.admin()} sets its own. Default none (the command line).
     */
    public Builder destinations(Collection<Destination> destinations) {
      requireNonNull(destinations, "destinations");
      rates.clear();
      destinations.forEach(d -> rates.put(d.name(), d.ratePerSecond()));
      return this;
    }

    public InboxAdmin build() {
      return new InboxAdmin(this);
    }
  }
}
