package dev.hookledger.runtime.internal.observe;

import dev.hookledger.WebhookEvent;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.MDC;

/**
 * The slf4j MDC of one event while the runtime works on it, so that every log line written meanwhile on
 * this thread (the runtime's own and the handlers') names it: {@value #PROVIDER}, {@value #EVENT_ID},
 * {@value #DELIVERY_ID} (when the provider sends one) and {@value #ATTEMPT} (while processing). Closing it
 * puts back what the thread's MDC held before, so that a request thread of the application keeps its own
 * keys. Not thread-safe: one per thread, closed on the thread that opened it.
 */
public final class EventMdc implements AutoCloseable {
  public static final String PROVIDER = "hookledger.provider";
  public static final String EVENT_ID = "hookledger.eventId";
  public static final String DELIVERY_ID = "hookledger.deliveryId";
  public static final String ATTEMPT = "hookledger.attempt";

  private final Map<String, String> before = new HashMap<>();

  private EventMdc() {}

  /** The keys of {@code event}; {@code attempt} 0 for a delivery being received (no attempt yet). */
  public static EventMdc of(WebhookEvent event, int attempt) {
    EventMdc mdc = new EventMdc();
    mdc.put(PROVIDER, event.provider());
    mdc.put(EVENT_ID, event.eventId());
    mdc.put(DELIVERY_ID, event.deliveryId().orElse(null));
    mdc.put(ATTEMPT, attempt > 0 ? Integer.toString(attempt) : null);
    return mdc;
  }

  private void put(String key, String value) {
    before.put(key, MDC.get(key));
    if (value == null) {
      MDC.remove(key);
    } else {
      MDC.put(key, value);
    }
  }

  @Override
  public void close() {
    before.forEach((key, value) -> {
      if (value == null) {
        MDC.remove(key);
      } else {
        MDC.put(key, value);
      }
    });
  }
}
