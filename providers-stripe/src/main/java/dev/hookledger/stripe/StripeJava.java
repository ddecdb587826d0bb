package dev.hookledger.stripe;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * The few public methods of one stripe-java that {@link StripeJavaParameters} calls, found by name
 * from a parameter's class and prepared once per stripe-java class loader. By name, because
 * stripe-java is optional and names no module: a module that compiled against it would have to
 * {@code requires} the name its jar file happens to have. {@code publicLookup()} reaches public
 * members of packages every module can read (the class path's, an automatic module's), without
 * a readability edge.
 */
final class StripeJava {
  static final String STRIPE_OBJECT = "com.stripe.model.StripeObject";
  static final String EVENT = "com.stripe.model.Event";

  private static final ClassValue<StripeJava> PREPARED = new ClassValue<>() {
    @Override
    protected StripeJava computeValue(Class<?> stripeObject) {
      return new StripeJava(stripeObject);
    }
  };

  private final Class<?> event;
  /**
   * {@code StripeObject.deserializeStripeObject(String, Class, StripeResponseGetter)}, what
   * {@code Webhook.constructEvent} calls, with {@code ApiResource.getGlobalResponseGetter()}.
   */
  private final MethodHandle deserialize;
  private final MethodHandle responseGetter;
  private final MethodHandle dataObjectDeserializer;
  private final MethodHandle object;
  private final MethodHandle deserializeUnsafe;

  private StripeJava(Class<?> stripeObject) {
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    try {
      ClassLoader loader = stripeObject.getClassLoader();
      event = Class.forName(EVENT, false, loader);
      Class<?> getter = Class.forName("com.stripe.net.StripeResponseGetter", false, loader);
      Class<?> data = Class.forName("com.stripe.model.EventDataObjectDeserializer", false, loader);
      deserialize = lookup.findStatic(stripeObject, "deserializeStripeObject",
          MethodType.methodType(Object.class, String.class, Class.class, getter)).asType(
          MethodType.methodType(Object.class, String.class, Class.class, Object.class));
      responseGetter = generic(lookup.unreflect(method(Class.forName("com.stripe.net.ApiResource", false, loader),
          "getGlobalResponseGetter")));
      dataObjectDeserializer = generic(lookup.unreflect(method(event, "getDataObjectDeserializer")));
      object = generic(lookup.unreflect(method(data, "getObject")));
      deserializeUnsafe = generic(lookup.unreflect(method(data, "deserializeUnsafe")));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this stripe-java lacks a method hookledger calls (" + e.getMessage()
          + "); hookledger supports stripe-java 29", e);
    }
  }

  /** The stripe-java of {@code type}, a {@code StripeObject} type. */
  static StripeJava of(Class<?> type) {
    return PREPARED.get(stripeObject(type));
  }

  /** {@code com.stripe.model.StripeObject} if {@code type} is it or a subclass, else {@code null}; loads nothing. */
  static Class<?> stripeObject(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      if (c.getName().equals(STRIPE_OBJECT)) {
        return c;
      }
    }
    return null;
  }

  /** The whole event as an {@code Event}, or its {@code data.object} as {@code type}. */
  Object fromEvent(String payload, Class<?> type) {
    Object whole = read(payload, event);
    if (type == event) {
      return whole;
    }
    Object found;
    try {
      Object data = dataObjectDeserializer.invoke(whole);
      Optional<?> current = (Optional<?>) object.invoke(data);
      found = current.isPresent() ? current.get() : deserializeUnsafe.invoke(data);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      // EventDataObjectDeserializationException, whose message can quote the payload: its kind only
      throw new IllegalArgumentException("stripe-java cannot read the data.object as " + type.getSimpleName()
          + " (" + e.getClass().getSimpleName() + ")");
    }
    if (!type.isInstance(found)) {
      throw new IllegalArgumentException("the data.object is of type "
          + (found == null ? "null" : found.getClass().getSimpleName()) + ", not " + type.getSimpleName());
    }
    return found;
  }

  /** {@code json} read as {@code type} by stripe-java's deserializer. */
  Object read(String json, Class<?> type) {
    try {
      return type.cast(deserialize.invoke(json, type, responseGetter.invoke()));
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      // Gson's message can quote the payload: keep only the kind of failure, and not the cause
      throw new IllegalArgumentException("stripe-java cannot read the payload as " + type.getSimpleName()
          + " (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static Method method(Class<?> owner, String name) throws NoSuchMethodException {
    return owner.getMethod(name);
  }

  /** The handle with its stripe-java types erased to {@code Object}, so it is called without naming them. */
  private static MethodHandle generic(MethodHandle handle) {
    return handle.asType(handle.type().generic());
  }
}
