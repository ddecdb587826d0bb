package dev.hookledger.runtime;

import java.util.Locale;

/**
 * A destination's circuit breaker, as every node of the ledger shares it: {@link #CLOSED}, effects
 * are sent; {@link #OPEN}, after consecutive failures, effects wait (they do not die) and no attempt
 * is made; {@link #PROBING}, one effect is let through, whose result closes or opens it again.
 */
public enum BreakerState {
  /** Effects are sent. */
  CLOSED,
  /** Effects wait until a probe is due; none is attempted. */
  OPEN,
  /** One effect is let through as a probe. */
  PROBING;

  /** The state as people, tools and the {@code breaker} column read it: {@code closed}, {@code open}. */
  public String displayText() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The state of {@code text} as {@link #displayText} writes it. */
  public static BreakerState of(String text) {
    return valueOf(text.toUpperCase(Locale.ROOT));
  }
}
