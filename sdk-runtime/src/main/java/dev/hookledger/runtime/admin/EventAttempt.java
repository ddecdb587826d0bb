package dev.hookledger.runtime.admin;

import java.time.Duration;
import java.time.Instant;

/**
 * One recorded attempt of an event: every failed one, and the success after failures (a first
 * attempt that succeeds is the event's own settle time). Times are the database's. Immutable.
 *
 * @param attempt its number, from 1; an operator's retry of a dead event counts from 1 again
 * @param node the worker that made it ({@code host/pid/random}, as the lease owner)
 * @param startedAt when it began
 * @param endedAt when its outcome was recorded
 * @param duration how long it ran
 * @param outcome {@code retry} (failed, tried again later), {@code dead} (failed, the last allowed),
 *     or the status it settled with ({@code done}, {@code ignored}, {@code stale})
 * @param cause the root cause in one line; empty for a success
 * @param error the whole error, trace included; empty for a success
 */
public record EventAttempt(int attempt, String node, Instant startedAt, Instant endedAt, Duration duration,
    String outcome, String cause, String error) {}
