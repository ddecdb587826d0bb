package dev.hookledger.stripe;

import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.LibraryParameters;

/**
 * stripe-java's own types as handler parameters: a {@code com.stripe.model.Event} parameter receives
 * the event, any other {@code StripeObject} type ({@code Invoice}, {@code Subscription}, ...) the
 * event's {@code data.object}, both read by stripe-java's deserializer as
 * {@code Webhook.constructEvent} reads them; under {@code @Payload}, the value at the pointer read
 * as the parameter's type. Found by the runtime as a {@link LibraryParameters} service; applications
 * add {@code com.stripe:stripe-java} and name its types, nothing else.
 *
 * <p>stripe-java stays optional, and is reached only through its public methods by name, from the
 * parameter's own class: this module needs no compile-time dependency on stripe-java, and on the
 * module path reads it whatever its jar is called (stripe-java declares no module name). Stateless
 * and thread-safe.
 */
public final class StripeJavaParameters implements LibraryParameters {

  /** Called by {@code ServiceLoader}. */
  public StripeJavaParameters() {}

  @Override
  public boolean supplies(Class<?> type) {
    return StripeJava.stripeObject(type) != null;
  }

  @Override
  public String described() {
    return "stripe-java's Event and StripeObject types";
  }

  /**
   * The event as a {@code com.stripe.model.Event}, or its {@code data.object} as {@code type}: the
   * object as this stripe-java reads it when the event's API version is the one it was built for,
   * else best effort ({@code deserializeUnsafe}).
   */
  @Override
  public Object fromEvent(WebhookEvent event, Class<?> type) {
    return StripeJava.of(type).fromEvent(event.payloadText(), type);
  }

  @Override
  public Object fromJson(String json, Class<?> type) {
    return StripeJava.of(type).read(json, type);
  }
}
