package dev.hookledger.runtime.admin;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One backfill as the ledger records it: what it runs, where it is and what it did. A snapshot.
 *
 * @param id its number, for {@code backfill --cancel} and the page
 * @param handlers the handlers it applies
 * @param provider the provider it is limited to; null for every one
 * @param type the type pattern of its events
 * @param since the start of its window; null for the oldest kept
 * @param until the end of its window (exclusive)
 * @param selected the events its window held when it started (events of the window that settle
 *     later, such as ones waiting then, are visited too: see {@link #total()})
 * @param applied events a named handler applied
 * @param skipped events every named handler had applied already, legacy events it skips, events no
 *     named handler matches, and events waiting for live processing (which runs every handler)
 * @param failed events a named handler failed on: they are retried as live events are, dead after
 *     the last attempt
 * @param owner the node holding it now; null if none does
 */
public record Backfill(long id, List<String> handlers, String provider, String type, Instant since, Instant until,
    LegacyEvents legacy, BackfillStatus status, long selected, long applied, long skipped, long failed, String owner,
    Instant createdAt, Instant finishedAt) {

  /** Events visited so far. */
  public long visited() {
    return applied + skipped + failed;
  }

  /** The events it visits, as far as known now: those selected at its start, or more if more were visited. */
  public long total() {
    return Math.max(selected, visited());
  }

  /** Progress between 0 and 1; 1 when done. */
  public double progress() {
    if (status == BackfillStatus.DONE) {
      return 1;
    }
    return total() == 0 ? 0 : (double) visited() / total();
  }

  /** The node running it; empty if none holds it now. */
  public Optional<String> runningOn() {
    return Optional.ofNullable(owner);
  }
}
