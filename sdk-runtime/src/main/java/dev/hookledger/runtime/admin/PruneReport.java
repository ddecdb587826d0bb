package dev.hookledger.runtime.admin;

import java.time.Instant;

/**
 * What one {@link InboxAdmin#prune prune} did, or a dry run would do.
 *
 * @param deleted settled events deleted (by a dry run: that would be deleted now)
 * @param batches delete statements run, each in its own short transaction; 0 for a dry run
 * @param cutoff events settled before this instant were eligible
 */
public record PruneReport(long deleted, int batches, Instant cutoff) {}
