package dev.hookledger.runtime.internal.outbox;

import static dev.hookledger.runtime.internal.outbox.EffectTable.*;

import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerTime;
import dev.hookledger.runtime.internal.ledger.RenderedSql;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Writes what an attempt came to, in one transaction of its own (or several attempts' in one, one
 * commit for all): the effect's row, fenced by the owner and attempt that claimed it (a node whose
 * lease was taken over writes nothing), one {@code effect_attempt} row, and the destination's
 * breaker, whose row is locked and written only by an answer that can change it.
 *
 * <p>The breaker: each failed attempt (retried, not refused) adds one to the destination's
 * consecutive failures, and any answer the destination gave in earnest (done, or refused for good)
 * resets them and closes the breaker. At {@code breakerFailures} in a row, or on a failed probe, the
 * breaker opens: the destination is given no effect until {@code probeAfter} has passed, then one
 * probe. An attempt that fails while the breaker is open, or opens it, is not counted against its
 * effect: effects wait out an outage, they do not die of it. Thread-safe.
 */
final class EffectSettler {
  private final DSLContext dsl;
  private final String node;
  private final RandomGenerator random;
  private final String readState;
  private final String lockState;
  private final String settleFinal;
  private final String settleWaiting;
  private final String attempt;
  private final String stateClosed;
  private final String stateStillOpen;
  private final String stateOpened;

  /** How the settle left the effect and the breaker, for the log and the listener. */
  record Settled(EffectStatus status, Duration retryIn, boolean breakerOpened, boolean breakerClosed) {}

  EffectSettler(DSLContext dsl, String schema, String node, RandomGenerator random) {
    EffectTable t = new EffectTable(schema);
    DSLContext sql = RenderedSql.renderer();
    this.dsl = dsl;
    this.node = node;
    this.random = random;
    this.readState = RenderedSql.render(sql.select(BREAKER, CONSECUTIVE_FAILURES).from(t.state())
        .where(DESTINATION.eq(DSL.val(""))), 1);
    this.lockState = RenderedSql.render(sql.select(BREAKER, CONSECUTIVE_FAILURES).from(t.state())
        .where(DESTINATION.eq(DSL.val(""))).forUpdate(), 1);
    // fenced: written only under the owner and attempt that claimed it. now() never under a CASE,
    // here and in the breaker's update: Citus refuses a non-immutable function there in a statement
    // on its tables, so each variant is rendered once and chosen in Java
    this.settleFinal = settle(sql, t, LedgerTime.NOW);
    this.settleWaiting = settle(sql, t, DSL.inline(null, SETTLED_AT));
    this.attempt = RenderedSql.render(sql.insertInto(t.attempt())
        .columns(SCOPE, KEY, ATTEMPT, NODE, STARTED_AT, ENDED_AT, DURATION_MS, STATUS_CODE, OUTCOME,
            RESPONSE_EXCERPT, ERROR)
        .values(DSL.val(""), DSL.val(null, KEY), DSL.val(0), DSL.val(""),
            DSL.field("(now() - {0} * interval '1 millisecond')", Instant.class, DSL.val(0L)), LedgerTime.NOW,
            DSL.val(0L), DSL.val(null, STATUS_CODE), DSL.val(""), DSL.val(null, RESPONSE_EXCERPT),
            DSL.val(null, ERROR)), 10);
    // opened_at: null once closed, kept while open, now() when it opens (from closed or a failed
    // probe); probe_at: now() plus the wait while open (bound null otherwise, which makes it null)
    this.stateClosed = state(sql, t, DSL.inline(null, OPENED_AT));
    this.stateStillOpen = state(sql, t, null);
    this.stateOpened = state(sql, t, LedgerTime.NOW);
  }

  private static String settle(DSLContext sql, EffectTable t, Field<Instant> settledAt) {
    return RenderedSql.render(sql.update(t.effect())
        .set(STATUS, DSL.val(""))
        .set(ATTEMPTS, ATTEMPTS.minus(DSL.val(0)))
        .set(AVAILABLE_AT, LedgerTime.nowPlusMillis(DSL.val(0L)))
        .set(LEASE_OWNER, DSL.inline(null, LEASE_OWNER))
        .set(LEASE_UNTIL, DSL.inline(null, LEASE_UNTIL))
        .set(LAST_STATUS_CODE, DSL.val(null, LAST_STATUS_CODE))
        .set(LAST_ERROR, DSL.val(null, LAST_ERROR))
        .set(SETTLED_AT, settledAt)
        .where(SCOPE.eq(DSL.val("")), KEY.eq(DSL.val(null, KEY)), LEASE_OWNER.eq(DSL.val("")),
            ATTEMPTS.eq(DSL.val(0)), STATUS.eq(EffectTable.status(EffectStatus.SENDING))), 9);
  }

  /** The breaker's update; {@code openedAt} null keeps the column as it is. */
  private static String state(DSLContext sql, EffectTable t, Field<Instant> openedAt) {
    var update = sql.update(t.state()).set(BREAKER, DSL.val("")).set(CONSECUTIVE_FAILURES, DSL.val(0));
    if (openedAt != null) {
      update = update.set(OPENED_AT, openedAt);
    }
    return RenderedSql.render(update.set(PROBE_AT, LedgerTime.nowPlusMillis(DSL.val(0L)))
        .set(UPDATED_AT, LedgerTime.NOW)
        .where(DESTINATION.eq(DSL.val(""))), 4);
  }

  /** One attempt's result, to be written. */
  record Attempt(ClaimedEffect effect, Destination destination, AttemptResult result, Duration took) {}

  /**
   * Writes the attempt's result.
   *
   * @return how it left the effect; null if the lease was lost meanwhile (nothing written)
   */
  Settled settle(ClaimedEffect e, Destination d, AttemptResult r, Duration took) {
    return settle(List.of(new Attempt(e, d, r, took))).get(0);
  }

  /**
   * Writes the results of several attempts in one transaction, one commit for all, each as
   * {@link #settle(ClaimedEffect, Destination, AttemptResult, Duration)} would in this order.
   *
   * @return how each left its effect, in the same order; null for one whose lease was lost meanwhile
   */
  List<Settled> settle(List<Attempt> attempts) {
    return LedgerDsl.inOwnTransaction(dsl, tx -> {
      Settled[] out = new Settled[attempts.size()];
      Map<String, List<Integer>> byDestination = new LinkedHashMap<>();
      for (int i = 0; i < attempts.size(); i++) {
        byDestination.computeIfAbsent(attempts.get(i).destination().name(), n -> new ArrayList<>()).add(i);
      }
      byDestination.values().forEach(indexes -> settle(tx, attempts, indexes, out));
      return Arrays.asList(out);
    });
  }

  /** Writes the attempts at {@code indexes}, all to one destination, in {@code tx}; their answers into {@code out}. */
  private void settle(DSLContext tx, List<Attempt> attempts, List<Integer> indexes, Settled[] out) {
    Destination d = attempts.get(indexes.get(0)).destination();
    // the destination's row is locked and written only when an answer can change it: a failure, or
    // any answer while the breaker is not closed or failures are counted. A success on a closed
    // breaker with none counted (nearly every settle) reads it unlocked and leaves it, so that one
    // destination's settles do not queue behind each other's commits for its row (it was the
    // dispatcher's ceiling: one settle per durable commit). Read unlocked, such a settle is ordered
    // before any concurrent failure's, which then counts from the row it finds
    List<Map<String, Object>> found = EffectTable.rows(tx, readState, d.name());
    String breaker = found.isEmpty() ? "closed" : (String) found.get(0).get("breaker");
    int failures = found.isEmpty() ? 0 : ((Number) found.get(0).get("consecutive_failures")).intValue();
    boolean anyFailed = indexes.stream().anyMatch(i -> attempts.get(i).result().outcome()
        == AttemptResult.Outcome.RETRY);
    boolean locked = !found.isEmpty() && (anyFailed || !breaker.equals("closed") || failures != 0);
    if (locked) {
      found = EffectTable.rows(tx, lockState, d.name());
      breaker = (String) found.get(0).get("breaker");
      failures = ((Number) found.get(0).get("consecutive_failures")).intValue();
    }
    boolean opened = false;
    for (int i : indexes) {
      Attempt a = attempts.get(i);
      ClaimedEffect e = a.effect();
      AttemptResult r = a.result();
      int nextFailures = failures;
      String nextBreaker = breaker;
      int refund = 0;
      if (r.outcome() == AttemptResult.Outcome.RETRY) {
        nextFailures++;
        boolean opens = d.breakerFailures() > 0 && (nextFailures >= d.breakerFailures() || breaker.equals("probing"));
        if (opens || breaker.equals("open")) {
          nextBreaker = "open";
          refund = 1;
        }
      } else {
        nextFailures = 0;
        nextBreaker = "closed";
      }
      int counted = e.attempt() - refund;
      EffectStatus status;
      Duration wait = Duration.ZERO;
      String outcome;
      switch (r.outcome()) {
        case DONE -> {
          status = EffectStatus.DONE;
          outcome = "done";
        }
        case PERMANENT -> {
          status = EffectStatus.DEAD;
          outcome = "dead";
        }
        default -> {
          if (counted >= d.maxAttempts()) {
            status = EffectStatus.DEAD;
            outcome = "dead";
          } else {
            status = EffectStatus.PENDING;
            outcome = refund == 1 ? "waiting" : "retry";
            wait = d.retry().delayAfter(Math.max(1, counted), random);
            if (r.retryAfter() != null && r.retryAfter().compareTo(wait) > 0) {
              wait = r.retryAfter();
            }
          }
        }
      }
      String error = status == EffectStatus.DEAD && r.outcome() == AttemptResult.Outcome.RETRY
          ? r.error() + "; no attempt left (" + counted + " of " + d.maxAttempts() + ")" : r.error();
      String settle = status == EffectStatus.PENDING ? settleWaiting : settleFinal;
      int written = EffectTable.update(tx, settle, status.displayText(), refund, wait.toMillis(), r.statusCode(),
          error, e.scope(), e.key(), e.owner(), e.attempt());
      if (written == 0) {
        continue; // taken over: the new holder decides, and its attempt is the one recorded
      }
      EffectTable.update(tx, attempt, e.scope(), e.key(), e.attempt(), node, a.took().toMillis(),
          a.took().toMillis(), r.statusCode(), outcome, r.excerpt(), r.error());
      out[i] = new Settled(status, status == EffectStatus.PENDING ? wait : null,
          nextBreaker.equals("open") && breaker.equals("closed"),
          nextBreaker.equals("closed") && !breaker.equals("closed"));
      opened |= nextBreaker.equals("open") && !breaker.equals("open");
      breaker = nextBreaker;
      failures = nextFailures;
    }
    if (locked) {
      // opened_at: now() if it opened in these attempts (from closed, or a failed probe), kept while it stays open
      String state = breaker.equals("closed") ? stateClosed : opened ? stateOpened : stateStillOpen;
      EffectTable.update(tx, state, breaker, failures, breaker.equals("open") ? d.breakerProbeAfter().toMillis() : null,
          d.name());
    }
  }
}
