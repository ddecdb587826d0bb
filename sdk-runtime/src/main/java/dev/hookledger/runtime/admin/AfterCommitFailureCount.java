package dev.hookledger.runtime.admin;

import java.time.Instant;

/**
 * How many {@code afterCommit} actions of one provider's events threw, on every runtime of a ledger
 * (see {@link InboxAdmin#afterCommitFailures()}). An {@code afterCommit} action runs at most once:
 * each of these was lost, and is not run again. Effects that must happen go through the outbox.
 *
 * @param provider the events' provider; never null
 * @param failures how many actions threw, at least 1
 * @param lastAt when the newest of them threw, by the database's clock; never null
 * @param lastEventId the id of the event whose action threw last; never null
 * @param lastCause the last failure's root cause, one line; never null
 */
public record AfterCommitFailureCount(String provider, long failures, Instant lastAt, String lastEventId,
    String lastCause) {}
