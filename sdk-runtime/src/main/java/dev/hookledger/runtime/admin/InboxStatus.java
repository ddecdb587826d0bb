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
 * dead events, and duplicate deliveries refused. Immutable.
 *
 * <p>In {@link dev.hookledger.runtime.ProcessingMode#SHADOW shadow mode} {@link #duplicates()} is
 * the number of deliveries the application's existing endpoint processed although they were
 * duplicates: the work hookledger will save once it enforces.
 */
public final class InboxStatus {
  private final Instant asOf;
  private final List<StatusCount> counts;
  private final Duration oldestWaitingAge;

  InboxStatus(Instant asOf, List<StatusCount> counts, Duration oldestWaitingAge) {
    this.asOf = requireNonNull(asOf, "asOf");
    this.counts = List.copyOf(counts);
    this.oldestWaitingAge = oldestWaitingAge;
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

  /** All events in the ledger. */
  public long total() {
    return counts.stream().mapToLong(StatusCount::events).sum();
  }

  /** Duplicate deliveries refused (acknowledged without processing), summed over every event. */
  public long duplicates() {
    return counts.stream().mapToLong(StatusCount::duplicates).sum();
  }
}
