package dev.hookledger.runtime.internal.outbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.EffectHandler;
import dev.hookledger.PermanentEffectFailure;
import dev.hookledger.internal.Json;
import java.io.IOException;

/**
 * Delivers a typed effect: reads its JSON back as the registered class with the application's
 * mapper and calls its {@link EffectHandler}. Returning is done; a {@link PermanentEffectFailure}, a
 * class no longer registered or JSON that no longer reads are refused for good; anything else thrown
 * is retried. Thread-safe.
 */
final class TypedSender {
  private final Destinations destinations;
  private final ObjectMapper mapper;

  TypedSender(Destinations destinations, ObjectMapper mapper) {
    this.destinations = destinations;
    this.mapper = mapper;
  }

  AttemptResult send(ClaimedEffect e) {
    EffectHandlerRegistration<?> h = destinations.handlerNamed(e.payloadType()).orElse(null);
    if (h == null) {
      return AttemptResult.permanent(null, null, "no EffectHandler is registered for " + e.payloadType());
    }
    return deliver(h, e);
  }

  private <T> AttemptResult deliver(EffectHandlerRegistration<T> h, ClaimedEffect e) {
    T effect;
    try {
      effect = mapper.readValue(e.body(), h.type());
    } catch (IOException ex) {
      return AttemptResult.permanent(null, null, "cannot read the effect as " + h.type().getName() + ": "
          + Json.describe(ex));
    }
    try {
      h.handler().deliver(effect, e);
      return AttemptResult.done(null, null);
    } catch (PermanentEffectFailure ex) {
      return AttemptResult.permanent(null, null, line(ex));
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return AttemptResult.retry(null, null, line(ex), null);
    } catch (Exception ex) {
      return AttemptResult.retry(null, null, line(ex), null);
    }
  }

  private static String line(Throwable t) {
    return t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }
}
