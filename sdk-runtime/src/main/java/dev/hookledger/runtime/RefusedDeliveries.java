package dev.hookledger.runtime;

import java.util.List;

/**
 * The deliveries this node's webhook door refused since it started: counts by provider and reason,
 * and the last {@value #RECENT} refused requests, newest first. Kept in memory only (a forged
 * request never writes to the ledger), so each node knows its own refusals and a CLI reading the
 * ledger cannot see them: read them through {@link WebhookRuntime#refusedDeliveries()}, the admin
 * page and its JSON, or health details. A snapshot: immutable.
 *
 * @param counts one per provider and reason seen, by provider then reason
 * @param recent the last refused requests, newest first, at most {@value #RECENT}
 */
public record RefusedDeliveries(List<RefusalCount> counts, List<RefusedDelivery> recent) {
  /** How many refused requests are kept. */
  public static final int RECENT = 100;

  /** The provider named for a path that names no registered provider (its text is in the path). */
  public static final String UNKNOWN_PROVIDER = "(unknown)";

  public RefusedDeliveries {
    counts = List.copyOf(counts);
    recent = List.copyOf(recent);
  }

  /** All refusals counted, over every provider and reason. */
  public long total() {
    return counts.stream().mapToLong(RefusalCount::count).sum();
  }
}
