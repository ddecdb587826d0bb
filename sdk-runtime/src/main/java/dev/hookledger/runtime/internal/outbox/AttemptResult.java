package dev.hookledger.runtime.internal.outbox;

import java.time.Duration;

/**
 * What one attempt at an effect came to.
 *
 * @param outcome done, to be retried, or refused for good
 * @param statusCode the HTTP status of the answer; null without one
 * @param excerpt the answer's first bytes as text, at most {@link #EXCERPT_BYTES}; null without one
 * @param error one line saying what failed; null for a success
 * @param retryAfter the wait the destination asked for ({@code Retry-After}); null if it asked none
 */
record AttemptResult(Outcome outcome, Integer statusCode, String excerpt, String error, Duration retryAfter) {
  /** How much of an answer is kept with each attempt. */
  static final int EXCERPT_BYTES = 2048;

  enum Outcome { DONE, RETRY, PERMANENT }

  static AttemptResult done(Integer statusCode, String excerpt) {
    return new AttemptResult(Outcome.DONE, statusCode, excerpt, null, null);
  }

  static AttemptResult retry(Integer statusCode, String excerpt, String error, Duration retryAfter) {
    return new AttemptResult(Outcome.RETRY, statusCode, excerpt, error, retryAfter);
  }

  static AttemptResult permanent(Integer statusCode, String excerpt, String error) {
    return new AttemptResult(Outcome.PERMANENT, statusCode, excerpt, error, null);
  }
}
