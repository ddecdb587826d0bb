package dev.hookledger.runtime.internal.dispatch.stripejava;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.stripe.exception.EventDataObjectDeserializationException;
import com.stripe.model.Event;
import com.stripe.model.EventDataObjectDeserializer;
import com.stripe.model.StripeObject;
import com.stripe.net.ApiResource;
import com.stripe.net.StripeResponseGetter;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.dispatch.BindingFailure;
import dev.hookledger.runtime.internal.dispatch.ParameterBinder;
import dev.hookledger.runtime.internal.dispatch.PayloadAbsence;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Supplies stripe-java's own types ({@code com.stripe.model.Event}, and {@code Invoice},
 * {@code Subscription}, ... as {@code StripeObject} subclasses) to handler parameters, read by
 * stripe-java's deserializer exactly as {@code Webhook.constructEvent} reads them. Loaded only when a
 * handler declares such a parameter, so stripe-java stays optional.
 *
 * <p>Without {@code @Payload}: an {@code Event} parameter receives the whole event; any other
 * {@code StripeObject} type receives the event's {@code data.object} through the event's
 * {@link EventDataObjectDeserializer}: the object as this stripe-java version reads it when the
 * event's API version is the one it was built for, else best effort ({@code deserializeUnsafe}). With
 * {@code @Payload}, the value at the pointer is read as the parameter's type.
 */
final class StripeParameters {
  /**
   * {@code StripeObject.deserializeStripeObject(String, Class, StripeResponseGetter)}, what
   * {@code Webhook.constructEvent} calls; through a handle because its overloads name Gson types,
   * and Gson is only stripe-java's runtime dependency, not one to compile against.
   */
  private static final MethodHandle DESERIALIZE = deserializer();

  private StripeParameters() {}

  static ParameterBinder binder(Class<?> type, JsonPointer pointer, PayloadAbsence absence) {
    if (pointer != null) {
      return inv -> {
        JsonNode node = inv.event().payload().at(pointer);
        if (node.isMissingNode()) {
          return absence.absent();
        }
        if (node.isNull()) {
          return absence.presentNull(); // Stripe's explicit null (a discount, a default payment method): null
        }
        return absence.wrap(read(node.toString(), type));
      };
    }
    if (type == Event.class) {
      return inv -> absence.wrap(event(inv.event()));
    }
    return inv -> absence.wrap(dataObject(inv.event(), type));
  }

  private static Event event(WebhookEvent event) {
    return read(event.payloadText(), Event.class);
  }

  private static Object dataObject(WebhookEvent event, Class<?> type) {
    EventDataObjectDeserializer data = event(event).getDataObjectDeserializer();
    StripeObject object;
    try {
      object = data.getObject().isPresent() ? data.getObject().get() : data.deserializeUnsafe();
    } catch (EventDataObjectDeserializationException e) {
      throw new BindingFailure("stripe-java cannot read the data.object as " + type.getSimpleName()
          + " (" + e.getClass().getSimpleName() + ")");
    }
    if (!type.isInstance(object)) {
      throw new BindingFailure("the data.object is of type "
          + (object == null ? "null" : object.getClass().getSimpleName()) + ", not " + type.getSimpleName());
    }
    return object;
  }

  private static <T> T read(String json, Class<T> type) {
    try {
      return type.cast((Object) DESERIALIZE.invokeExact(json, (Class<?>) type, ApiResource.getGlobalResponseGetter()));
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      // Gson's message can quote the payload: keep only the kind of failure, and not the cause
      throw new BindingFailure("stripe-java cannot read the payload as " + type.getSimpleName()
          + " (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static MethodHandle deserializer() {
    try {
      return MethodHandles.publicLookup().findStatic(StripeObject.class, "deserializeStripeObject",
          MethodType.methodType(Object.class, String.class, Class.class, StripeResponseGetter.class));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this stripe-java has no StripeObject.deserializeStripeObject(String, Class,"
          + " StripeResponseGetter); hookledger supports stripe-java 29", e);
    }
  }
}
