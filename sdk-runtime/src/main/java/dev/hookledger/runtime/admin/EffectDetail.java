package dev.hookledger.runtime.admin;

import java.util.List;

/**
 * One effect with every attempt recorded, oldest first, as {@link OutboxAdmin#effectsOf} lists an
 * event's effects. Immutable.
 */
public record EffectDetail(EffectSummary summary, List<EffectAttempt> attempts) {
  public EffectDetail {
    attempts = List.copyOf(attempts);
  }
}
