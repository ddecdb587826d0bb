package dev.hookledger.runtime.internal.outbox;

import dev.hookledger.runtime.internal.ledger.CitusLedger;
import java.util.ArrayList;
import java.util.List;

/**
 * Group commit for the senders' settles, as {@code GroupCommit} is for the receive path's inserts:
 * a sender hands in its attempt's result and waits; one of the waiting senders at a time (the
 * leader: no thread of its own, no timer) writes every result handed in meanwhile in one
 * transaction ({@link EffectSettler#settle(List)}). An attempt alone is written at once, alone;
 * under load the attempts finished while a commit is in flight share the next one, so one durable
 * commit serves several effects instead of one each (the dispatcher's ceiling was one settle per
 * commit).
 *
 * <p>A batch that fails fails every attempt in it: each sender then treats it as its own failed
 * settle (logged; the effect's lease runs out and it is sent again: at least once). On a ledger
 * distributed by Citus each attempt is settled alone, in a transaction of its own: a batch's
 * effects lie on several shards, and one transaction writing them with the destination's row (a
 * reference table) would span them. Thread-safe.
 */
final class GroupSettle {
  private final EffectSettler settler;
  private final CitusLedger citus;
  /** Handed in, not yet taken by a leader; guarded by this. */
  private final List<Waiting> waiting = new ArrayList<>();
  /** Whether a sender is writing a batch; guarded by this. */
  private boolean leading;

  /** One sender's attempt, and what became of it; its fields guarded by the group. */
  private static final class Waiting {
    final EffectSettler.Attempt attempt;
    EffectSettler.Settled settled;
    RuntimeException failure;
    boolean done;

    Waiting(EffectSettler.Attempt attempt) {
      this.attempt = attempt;
    }
  }

  GroupSettle(EffectSettler settler, CitusLedger citus) {
    this.settler = settler;
    this.citus = citus;
  }

  /**
   * Writes the attempt's result, alone or with those of other senders, and returns once its
   * transaction has committed.
   *
   * @return how it left the effect; null if the lease was lost meanwhile (nothing written)
   * @throws RuntimeException what the transaction holding it failed with (nothing of it written)
   */
  EffectSettler.Settled settle(EffectSettler.Attempt attempt) {
    // read outside any transaction: its first reading is a transaction of its own
    if (citus.distributed()) {
      return settler.settle(List.of(attempt)).get(0);
    }
    Waiting mine = new Waiting(attempt);
    List<Waiting> batch;
    boolean interrupted = false;
    synchronized (this) {
      waiting.add(mine);
      while (leading && !mine.done) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true; // the result is written by the leader whatever this thread is told
        }
      }
      if (!mine.done) {
        leading = true;
        batch = new ArrayList<>(waiting);
        waiting.clear();
      } else {
        batch = List.of();
      }
    }
    if (!batch.isEmpty()) {
      write(batch);
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      if (mine.failure != null) {
        throw mine.failure;
      }
      return mine.settled;
    }
  }

  /** Writes {@code batch} in one transaction and hands each its answer; then the next waiting sender leads. */
  private void write(List<Waiting> batch) {
    List<EffectSettler.Settled> settled = null;
    RuntimeException failure = null;
    try {
      settled = settler.settle(batch.stream().map(w -> w.attempt).toList());
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      synchronized (this) {
        for (int i = 0; i < batch.size(); i++) {
          Waiting w = batch.get(i);
          if (settled != null) {
            w.settled = settled.get(i);
          } else {
            w.failure = failure != null ? failure : new IllegalStateException("the settle's batch did not end");
          }
          w.done = true;
        }
        leading = false;
        notifyAll();
      }
    }
  }
}
