package dev.hookledger.runtime.admin;

import java.time.Duration;
import java.time.Instant;

/**
 * One recorded attempt at an effect. Times are the database's. Immutable.
 *
 * @param attempt its number, from 1; an operator's retry of a dead effect counts from 1 again
 * @param node the node that made it
 * @param startedAt when it began
 * @param endedAt when its outcome was recorded
 * @param duration how long it ran
 * @param statusCode the HTTP status answered; null without an answer (a timeout, a typed effect)
 * @param outcome {@code done}, {@code retry}, {@code dead}, or {@code waiting} (held by the breaker)
 * @param responseExcerpt the start of the answer as text (bounded); null if none
 * @param error the error, one line; null for a success
 */
public record EffectAttempt(int attempt, String node, Instant startedAt, Instant endedAt, Duration duration,
    Integer statusCode, String outcome, String responseExcerpt, String error) {}
