package dev.hookledger.spi;

import dev.hookledger.WebhookEvent;

/**
 * Handler parameters of an optional library's own types, read as that library reads them: the
 * model types of a provider's official SDK, say (hookledger-stripe supplies stripe-java's
 * {@code Event} and {@code StripeObject} types this way). Implementations are found by
 * {@link java.util.ServiceLoader} (listed in
 * {@code META-INF/services/dev.hookledger.spi.LibraryParameters}, or {@code provides} in a module
 * descriptor), so that the runtime names none of them.
 *
 * <p>The library stays optional: {@link #supplies} recognises its types without loading it, and an
 * application whose handlers name none of its types runs without it. For a parameter of a supplied
 * type the runtime resolves a {@code @Payload} pointer itself (nothing there fails the attempt or
 * gives an empty {@code Optional}, JSON {@code null} gives {@code null}, as for every payload
 * parameter) and asks the library only for the value.
 *
 * <p>Implementations are stateless and thread-safe. A value that cannot be read is an
 * {@link IllegalArgumentException} whose message names what could not be read and never quotes the
 * payload: the attempt fails with that message (rolled back, retried, then {@code dead}), as when a
 * handler throws.
 */
public interface LibraryParameters {

  /** Whether {@code type} is one of this library's types; decided without loading the library. */
  boolean supplies(Class<?> type);

  /** How registration messages name the supplied types, e.g. {@code some-sdk's Event types}. */
  String described();

  /**
   * The value of a parameter of {@code type} without {@code @Payload}: read from the whole event.
   *
   * @throws IllegalArgumentException if the event does not hold a {@code type}
   */
  Object fromEvent(WebhookEvent event, Class<?> type);

  /**
   * The value of a parameter of {@code type} under a {@code @Payload} pointer.
   *
   * @param json the JSON text at the pointer; never {@code null}, never JSON {@code null}
   * @throws IllegalArgumentException if the text cannot be read as a {@code type}
   */
  Object fromJson(String json, Class<?> type);
}
