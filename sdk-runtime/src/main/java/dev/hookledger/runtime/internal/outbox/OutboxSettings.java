package dev.hookledger.runtime.internal.outbox;

import dev.hookledger.runtime.Destination;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The outbox's settings, as the builder was told them: its sender threads, how often they poll,
 * the named destinations and the effect handlers.
 *
 * @param workers sender threads on this node, 0 for none (the node enqueues only)
 * @param pollInterval the mean wait between polls when nothing wakes the senders
 * @param destinations the named destinations, by name
 * @param handlers the effect handlers, each under its destination's name
 */
public record OutboxSettings(int workers, Duration pollInterval, Map<String, Destination> destinations,
    List<EffectHandlerRegistration<?>> handlers) {
  public OutboxSettings {
    destinations = Map.copyOf(destinations);
    handlers = List.copyOf(handlers);
  }
}
