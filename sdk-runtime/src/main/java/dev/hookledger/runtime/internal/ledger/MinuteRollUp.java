package dev.hookledger.runtime.internal.ledger;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The roll-up pass of {@code V13__minute_roll_up.sql}: counts the event rows received and finished
 * from {@code minute_roll_up.closed_before} to the closed bound below into {@code minute_count}, per
 * minute, and moves {@code closed_before} on, in one transaction per step of at most {@link #STEP},
 * so that a pass after any downtime catches up and a pass that fails or runs twice changes nothing.
 * A step that runs long, or past the statement timeout (many rows in its span, after a bound held
 * back by an old transaction), cuts the span of the next, down to {@link #SMALLEST_STEP}
 * ({@link #nextSpan}): the pass goes on where it would fail at the same step every time.
 *
 * <p>A time is closed once no transaction can still write a row at it: it is before the oldest open
 * transaction began (rows take their times from {@code now()} or the settle's statement time, never
 * earlier than their transaction's start). Other roles' transactions are invisible in
 * {@code pg_stat_activity} to an unprivileged role: while any is there, a closed time is also at
 * least {@link #GRACE} ago. From version 20 the bound may fall within a minute (the count triggers
 * compare times with it, {@code V20__roll_up_bound.sql}): that minute's row holds its rows before
 * the bound, and the next pass adds the rest. So where the pass's role sees every session (the usual
 * single application role, or a role granted {@code pg_read_all_stats}), the chart reads from the
 * event table only the rows since the last pass; otherwise those of a minute more. Rows written
 * later at a closed time (a prune, a retry of an old dead event, a bulk import of old rows) are
 * counted by the event table's triggers (from version 14 appended as their own rows, folded below).
 *
 * <p>One node at a time: each step takes a transaction-level advisory lock and returns at once if
 * another node holds it. Does nothing on a ledger without the roll-up (before V13, or on Citus).
 *
 * <p>From version 21 a step also takes the count triggers' lock ({@link #COUNT_LOCK}) exclusively
 * before it reads the sessions and counts: a trigger call that reads the bound holds it shared to its
 * transaction's end ({@code V21__roll_up_lock.sql}). Else a change to a row at a time the step
 * closes, made before the step moved the bound and committed after its snapshot, was counted by
 * neither. Receives, claims and settles never take it (from version 22 a duplicate of an event
 * settled since the bound does, shared); a step waits {@link #COUNT_LOCK_WAIT} at most for an
 * operator's retry, a prune batch or an import to end, else closes nothing this time.
 *
 * <p>From version 22 moving the bound also counts into {@code status_count} the finished rows settled
 * in the times it closes (a trigger on {@code minute_roll_up}, {@code V22__status_roll_up.sql}, in the
 * step's transaction): a settle writes no count row, and a reader adds the rows settled since the bound
 * ({@link StatusCountTable#counted}).
 *
 * <p>From version 14 the pass also folds the count changes that the event table's row triggers
 * append ({@code V14__row_counts.sql}: one {@code status_count} and {@code minute_count} row per
 * changed event row) into the counts they add to, at most {@link #FOLD} rows of each table per
 * transaction, so that a reader adds up a few hundred rows plus the changes since the last pass.
 * Then, after a bulk change, it gives the count tables the space of the folded rows back
 * ({@link CountCompaction}), so that they stay the size of their live rows.
 */
public final class MinuteRollUp {
  /** "hkru": the first key of the pass's advisory lock, the second being the schema's hash. */
  static final int LOCK_CLASS = 0x686b7275;
  /**
   * "hkrv": the first key of the lock a step takes exclusively and the count triggers shared, the
   * second being the oid of the schema's {@code minute_roll_up} ({@code V21__roll_up_lock.sql} spells
   * both the same way).
   */
  static final int COUNT_LOCK = 0x686b7276;
  /**
   * How long a step waits for the transactions that hold {@link #COUNT_LOCK} shared: an operator's
   * retry, a prune batch, an import. While it waits, those that come after it wait for it, so the
   * wait is short; a bulk change that runs longer leaves its times open until a later pass.
   */
  static final Duration COUNT_LOCK_WAIT = Duration.ofSeconds(2);
  private static final Logger log = LoggerFactory.getLogger(MinuteRollUp.class);
  /**
   * The most minutes one transaction counts: after a long downtime the catch-up is many short
   * transactions, each within the statement timeout at thousands of events a second.
   */
  static final Duration STEP = Duration.ofMinutes(10);
  /** The shortest span a step is cut to after steps that ran long or past the statement timeout. */
  static final Duration SMALLEST_STEP = Duration.ofSeconds(10);
  /** How long a step may take before the next one's span is halved ({@link #nextSpan}). */
  static final Duration STEP_TARGET = Duration.ofSeconds(1);
  /**
   * The most appended count changes of each table one fold transaction moves: a bulk statement's
   * hundred thousand rows take a few short transactions, each well within the statement timeout.
   */
  static final int FOLD = 20_000;
  /**
   * The statement timeout of a fold transaction, in place of the pool's (seconds, set for a
   * delivery's path): on a loaded server, a batch of a bulk change's rows in a table of hundreds of
   * megabytes took longer than 5 s, every pass failed and nothing was ever folded. A fold holds no
   * lock a receive, a claim or a settle waits for (it deletes appended rows nobody else writes, and
   * writes stripe 0, which otherwise only a prune's batch writes), so a longer bound costs the live
   * path nothing; a prune batch may wait for it.
   */
  static final Duration FOLD_TIMEOUT = Duration.ofMinutes(2);

  /**
   * How long ago a time must be for the pass to close it while this role cannot see every session of
   * the database ({@code pg_stat_activity} hides other roles' transactions from an unprivileged
   * role): longer than a delivery's transaction runs. With every session in sight, the oldest open
   * transaction's start bounds the pass exactly.
   */
  public static final Duration GRACE = Duration.ofMinutes(1);
  private static final String GRACE_SQL = "interval '" + GRACE.toSeconds() + " seconds'";

  /**
   * How far behind the bound may stay before {@link #heldBack} names the transaction that holds it:
   * longer than any delivery's transaction runs, short enough that the reads it costs ({@code status}
   * and the chart count the events since the bound from the event table) are still small.
   */
  static final Duration HELD_BACK = Duration.ofMinutes(5);

  private final EventTable events;
  private final CountCompaction compaction;
  private final Duration heldBackAfter;
  private final String oldest;
  private final String rollUp;
  private final String countLock;
  private final String countRange;
  private final String closable;
  private final String fold;
  private final String folds;
  /** The span of the next step: {@link #STEP}, shorter after steps that ran long ({@link #nextSpan}). */
  private volatile Duration span = STEP;
  /** The transaction id of the last fold that moved rows (0: none yet on this node), for {@link CountCompaction}. */
  private volatile long lastFold;
  /** Set once the fold's function is seen (V14 on), so that each pass after it asks the catalogue nothing. */
  private volatile boolean foldable;

  public MinuteRollUp(EventTable events) {
    this(events, HELD_BACK);
  }

  /** @param heldBackAfter how far behind the bound may stay before {@link #heldBack} says why */
  MinuteRollUp(EventTable events, Duration heldBackAfter) {
    this.events = events;
    this.heldBackAfter = heldBackAfter;
    this.compaction = new CountCompaction(events);
    String schema = '"' + events.schema() + '"';
    this.rollUp = schema + ".minute_roll_up";
    this.countLock = "select pg_advisory_xact_lock(" + COUNT_LOCK + ", to_regclass(?)::oid::int)";
    // with the transaction's id: the rows it deleted are reclaimable once no session is older
    this.fold = "select " + schema + ".fold_count_changes(?), txid_current()";
    this.folds = "select to_regprocedure('" + schema.replace("'", "''") + ".fold_count_changes(integer)') is not null";
    // the settled arm spelled as the partial indexes' predicates, so that each arm reads its own index
    // the table's columns in order (minute, stripe 0, received, settled), left unnamed: the word for a
    // stripe of counts is also a provider's name, which ArchitectureTest keeps out of the core
    // the bound: the start of the oldest transaction this role can see in the database, and the
    // minute of grace only while it cannot see them all (another role's session shows no backend
    // type); within a minute, as V20's triggers compare times with it
    this.closable = "select closed_before, least(closed_before + ?::interval, ("
        + "select least(now() - case when bool_or(backend_type is null) then " + GRACE_SQL
        + " else interval '0' end, min(xact_start)) from pg_stat_activity where datname = current_database()"
        + " and pid <> pg_backend_pid() and (backend_type is null or backend_type = 'client backend')))"
        + " from " + rollUp + " for update";
    // the bound's age, the oldest transaction this role can see in the database (if any), and whether
    // it cannot see them all (another role's sessions show no backend type)
    this.oldest = "select extract(epoch from now() - r.closed_before), a.pid, a.application_name, a.state,"
        + " extract(epoch from now() - a.xact_start), (select coalesce(bool_or(backend_type is null), false)"
        + " from pg_stat_activity where datname = current_database()) from " + rollUp + " r left join lateral ("
        + "select pid, application_name, state, xact_start from pg_stat_activity where datname = current_database()"
        + " and pid <> pg_backend_pid() and xact_start is not null and backend_type = 'client backend'"
        + " order by xact_start limit 1) a on true";
    this.countRange = "insert into " + schema + ".minute_count as c"
        + " select m, 0, sum(r), sum(s) from ("
        + " select date_trunc('minute', received_at), 1, 0 from " + schema + ".event"
        + "  where received_at >= ?::timestamptz and received_at < ?::timestamptz"
        + " union all select date_trunc('minute', settled_at), 0, 1 from " + schema + ".event"
        + "  where status in ('done', 'ignored', 'stale') and settled_at >= ?::timestamptz and settled_at < ?::timestamptz"
        + " union all select date_trunc('minute', settled_at), 0, 1 from " + schema + ".event"
        + "  where status = 'dead' and settled_at >= ?::timestamptz and settled_at < ?::timestamptz"
        + ") as v (m, r, s) group by m"
        // the minute that held the last bound has the rows before it: the rest is added to them
        + " on conflict on constraint minute_count_pkey do update"
        + " set received = c.received + excluded.received, settled = c.settled + excluded.settled";
  }

  /**
   * Counts every time closed since the last pass, step by step; returns the whole minutes closed (0 if
   * none, if another node is counting, or if the ledger keeps no roll-up).
   */
  public long pass(DSLContext db) {
    if (!MinuteCountTable.rolledUp(db, events)) {
      return 0;
    }
    Duration closed = Duration.ZERO;
    Step step;
    do {
      Duration current = span;
      long start = System.nanoTime();
      try {
        step = LedgerDsl.inOwnTransaction(db, tx -> step(tx, current));
        span = nextSpan(current, Duration.ofNanos(System.nanoTime() - start));
      } catch (DataAccessException e) {
        if (LedgerErrors.isLockNotAvailable(e)) {
          log.debug("roll-up step closed nothing: a change of rows at closed times ran on past {} ms",
              COUNT_LOCK_WAIT.toMillis());
          step = Step.NONE;
        } else if (LedgerErrors.isStatementTimeout(e) && current.compareTo(SMALLEST_STEP) > 0) {
          span = halved(current);
          log.debug("a roll-up step of {} ms ran past the statement timeout: {} ms a step from here", current.toMillis(),
              span.toMillis());
          step = Step.AGAIN;
        } else {
          throw e;
        }
      }
      closed = closed.plus(step.closed());
    } while (step.more());
    fold(db);
    compaction.compact(db, lastFold);
    return closed.toMinutes();
  }

  /**
   * The span of the next step after one of {@code current} that took {@code took}: halved (down to
   * {@link #SMALLEST_STEP}) after a step over {@link #STEP_TARGET}, so that a step after a bound held
   * back for long (hundreds of thousands of rows in ten minutes) keeps within the statement timeout
   * and holds the count lock briefly; doubled back (up to {@link #STEP}) after one under a quarter of it.
   */
  static Duration nextSpan(Duration current, Duration took) {
    if (took.compareTo(STEP_TARGET) > 0) {
      return halved(current);
    }
    if (took.compareTo(STEP_TARGET.dividedBy(4)) < 0) {
      Duration twice = current.multipliedBy(2);
      return twice.compareTo(STEP) > 0 ? STEP : twice;
    }
    return current;
  }

  private static Duration halved(Duration span) {
    Duration half = span.dividedBy(2);
    return half.compareTo(SMALLEST_STEP) < 0 ? SMALLEST_STEP : half;
  }

  /**
   * What a step closed, and whether it stopped at its span (more may be closable), or was only
   * cut short (a timeout: again, with a smaller span).
   */
  private record Step(Duration closed, boolean more) {
    static final Step NONE = new Step(Duration.ZERO, false);
    static final Step AGAIN = new Step(Duration.ZERO, true);
  }

  /**
   * Folds the count changes appended since the last pass (version 14 on), a transaction per
   * {@link #FOLD} rows; returns how many it moved. Safe beside writers and another node's fold.
   */
  public long fold(DSLContext db) {
    if (!foldable && !(foldable = db.fetchSingle(folds).get(0, Boolean.class))) {
      return 0;
    }
    long moved = 0;
    long batch;
    do {
      Record r = LedgerDsl.inOwnTransaction(db, tx -> {
        tx.execute("set local statement_timeout = " + FOLD_TIMEOUT.toMillis());
        return tx.fetchSingle(fold, FOLD);
      });
      batch = r.get(0, Long.class);
      if (batch > 0) {
        lastFold = r.get(1, Long.class);
      }
      moved += batch;
    } while (batch >= FOLD);
    return moved;
  }

  /**
   * Why the bound stays behind, if it is more than {@code heldBackAfter} behind the database's clock
   * (five minutes: {@link #HELD_BACK}): the oldest transaction open in the database, which the pass never
   * closes past, named by its process id, application and state, or, where this role sees none, that
   * another role's session may be the one. Empty while the pass keeps up, or on a ledger without it.
   * {@code status} and the chart count the events since the bound from the event table meanwhile.
   */
  public Optional<String> heldBack(DSLContext db) {
    if (!MinuteCountTable.rolledUp(db, events)) {
      return Optional.empty();
    }
    Record r = db.fetchSingle(oldest);
    double behind = r.get(0, Double.class);
    if (behind * 1000 < heldBackAfter.toMillis()) {
      return Optional.empty();
    }
    String bound = "the roll-up of ledger schema '" + events.schema() + "' is " + age(behind)
        + " behind";
    String reads = "; status and the chart count the events settled since from the event table meanwhile";
    if (r.get(1) == null && r.get(5, Boolean.class)) {
      return Optional.of(bound + ": it never counts past the start of the oldest transaction open in its database,"
          + " and this role sees none: another role's session may hold it (grant this role pg_read_all_stats to see"
          + " it)" + reads);
    }
    if (r.get(1) == null || r.get(4, Double.class) + GRACE.toSeconds() < behind) {
      // the oldest transaction began after the bound: it is the pass that is behind, not held
      return Optional.of(bound + ": its pass has not closed those times (see the lines above about rolling up)" + reads);
    }
    String application = r.get(2, String.class);
    return Optional.of(bound + ": it never counts past the start of the oldest transaction open in its database,"
        + " pid " + r.get(1, Integer.class) + " ("
        + (application == null || application.isEmpty() ? "no application name" : "application '" + application + "'")
        + ", " + r.get(3, String.class) + ", its transaction open " + age(r.get(4, Double.class))
        + ")" + reads);
  }

  /** {@code 7 min 12 s}: internal.admin's wording would make the packages depend on each other in a circle. */
  private static String age(double seconds) {
    long s = Math.max(0, Math.round(seconds));
    return s / 60 + " min " + s % 60 + " s";
  }

  /** One step of at most {@code span}: what it closed ({@link Step#NONE} if another node holds the lock). */
  private Step step(DSLContext tx, Duration span) {
    if (!tx.fetchSingle("select pg_try_advisory_xact_lock(?, ?)", LOCK_CLASS, events.schema().hashCode())
        .get(0, Boolean.class)) {
      return Step.NONE;
    }
    // before the sessions are read: a change that holds the lock shared has read the bound and is done
    tx.execute("set local lock_timeout = " + COUNT_LOCK_WAIT.toMillis());
    tx.fetch(countLock, rollUp);
    Record range = tx.fetchSingle(closable, span.toMillis() + " milliseconds");
    Instant from = range.get(0, Instant.class);
    Instant to = range.get(1, Instant.class);
    if (!to.isAfter(from)) {
      return Step.NONE;
    }
    OffsetDateTime f = from.atOffset(ZoneOffset.UTC);
    OffsetDateTime t = to.atOffset(ZoneOffset.UTC);
    tx.execute(countRange, f, t, f, t, f, t);
    tx.execute("update " + rollUp + " set closed_before = ?::timestamptz", t);
    return new Step(Duration.between(from, to), !to.isBefore(from.plus(span)));
  }
}
