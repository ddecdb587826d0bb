package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.EventStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A snapshot of the ledger: events per provider and status, the age of the oldest waiting event,
 * failing, stuck and dead events, and duplicate deliveries refused. Immutable.
 *
 * <p>What needs a person, at a glance: {@link #dead()} (retry once the cause is fixed),
 * {@link #failing()} (each attempt fails; they will be dead after the last), {@link #stuck()} (due
 * and taken by no worker: are the workers running?) and {@link #oldestWaitingAge()}.
 *
 * <p>In {@link dev.hookledger.runtime.ProcessingMode#SHADOW shadow mode} {@link #duplicates()} is
 * the number of deliveries the application's existing endpoint processed although they were
 * duplicates: the work hookledger will save once it enforces.
 *
 * <p>The finished events' counts are exact, whatever the history holds. The waiting ones are exact
 * up to {@value #COUNTED}: a read of the waiting rows stops after the {@value #COUNTED} + 1 due
 * first, so that its cost does not grow with the backlog (a bulk retry of a million dead events
 * leaves a million waiting). A figure above {@value #COUNTED} ({@link #waiting()}, {@link #stuck()},
 * {@link #failing()}) means "more than {@value #COUNTED}": then the waiting rows of {@link #counts()}
 * are those of the rows due first, and {@link #oldestWaitingAge()} is the oldest of those.
 */
public final class InboxStatus {
  /**
   * Waiting, stuck and failing events are counted up to this many, and one more: a figure above it
   * means "more than 10,000".
   */
  public static final int COUNTED = 10_000;

  private final Instant asOf;
  private final List<StatusCount> counts;
  private final Duration oldestWaitingAge;
  private final long failing;
  private final long stuck;
  private final Duration stuckAfter;

  InboxStatus(Instant asOf, List<StatusCount> counts, Duration oldestWaitingAge, long failing, long stuck,
      Duration stuckAfter) {
    this.asOf = requireNonNull(asOf, "asOf");
    this.counts = List.copyOf(counts);
    this.oldestWaitingAge = oldestWaitingAge;
    this.failing = failing;
    this.stuck = stuck;
    this.stuckAfter = requireNonNull(stuckAfter, "stuckAfter");
  }

  /** When the snapshot was taken, by the admin's clock. */
  public Instant asOf() {
    return asOf;
  }

  /** Non-zero counts, ordered by provider and then status in processing order. Never null. */
  public List<StatusCount> counts() {
    return counts;
  }

  /** How long the oldest {@code pending} or {@code processing} event has been in the ledger; empty if none waits. */
  public Optional<Duration> oldestWaitingAge() {
    return Optional.ofNullable(oldestWaitingAge);
  }

  /** Events in {@code status} across providers. */
  public long count(EventStatus status) {
    return counts.stream().filter(c -> c.status().equals(status)).mapToLong(StatusCount::events).sum();
  }

  /** Events still waiting for a worker ({@code pending} and {@code processing}). */
  public long waiting() {
    return Arrays.stream(EventStatus.values()).filter(EventStatus::isWaiting).mapToLong(this::count).sum();
  }

  /** Events that failed their last allowed attempt and wait for an operator. */
  public long dead() {
    return count(EventStatus.DEAD);
  }

  /**
   * Waiting events with at least one failed attempt ({@link EventSummary#failing()}): not dead yet,
   * but failing on each try. List them with {@link StatusFilter#FAILING}.
   */
  public long failing() {
    return failing;
  }

  /**
   * Waiting events due for longer than {@link #stuckAfter()} and taken by no worker
   * ({@link EventSummary#stuck()}): no live worker polls this ledger, or they cannot keep up.
   */
  public long stuck() {
    return stuck;
  }

  /** The threshold {@link #stuck()} was counted with. */
  public Duration stuckAfter() {
    return stuckAfter;
  }

  /** All events in the ledger. */
  public long total() {
    return counts.stream().mapToLong(StatusCount::events).sum();
  }

  /** Duplicate deliveries refused (acknowledged without processing), summed over every event. */
  public long duplicates() {
    return counts.stream().mapToLong(StatusCount::duplicates).sum();
  }
}
