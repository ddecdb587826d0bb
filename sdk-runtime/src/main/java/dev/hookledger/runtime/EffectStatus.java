package dev.hookledger.runtime;

import java.util.Locale;

/**
 * Where an effect stands in the outbox: waiting to be sent ({@link #PENDING}, {@link #SENDING}),
 * {@link #DONE}, or {@link #DEAD}, waiting for an operator.
 *
 * <p>The admin API, the CLI and the admin JSON show a status by its lower-case name; the effect
 * table's {@code status} column holds the same name.
 */
public enum EffectStatus {
  /** Committed and waiting to be sent: for its first attempt, after a failure, or while its destination is paused. */
  PENDING,
  /** Claimed by a sender under a lease; an attempt is running, or its node died and the lease will run out. */
  SENDING,
  /** The destination accepted it (a 2xx answer, or its {@code EffectHandler} returned). */
  DONE,
  /** Refused for good (a 4xx answer, a {@code PermanentEffectFailure}) or out of attempts; kept for an operator. */
  DEAD;

  /** The status as people, tools and the {@code status} column read it: {@code pending}, {@code dead}. */
  public String displayText() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether a sender will still take the effect on its own: {@link #PENDING} or {@link #SENDING}. */
  public boolean isWaiting() {
    return this == PENDING || this == SENDING;
  }

  /** The status of {@code text} as {@link #displayText} writes it. */
  public static EffectStatus of(String text) {
    return valueOf(text.toUpperCase(Locale.ROOT));
  }
}
