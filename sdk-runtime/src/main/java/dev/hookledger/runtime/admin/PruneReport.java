package dev.hookledger.runtime.admin;

import java.time.Instant;

/**
 * What one {@link InboxAdmin#prune prune} did.
 *
 * @param deleted settled events deleted
 * @param batches delete statements run, each in its own short transaction
 * @param cutoff events settled before this instant were eligible
 */
public record PruneReport(long deleted, int batches, Instant cutoff) {}
