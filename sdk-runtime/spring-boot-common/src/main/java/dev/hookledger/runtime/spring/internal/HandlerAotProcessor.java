package dev.hookledger.runtime.spring.internal;

import dev.hookledger.EffectHandler;
import dev.hookledger.OnEvent;
import dev.hookledger.spi.LibraryParameters;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * Ahead-of-time (GraalVM native image) hints for each bean that declares {@code @OnEvent} methods: the
 * runtime's scanner reads the declared methods of the bean's class and its superclasses, calls each
 * {@code @OnEvent} method through a method handle, and Jackson binds the payload parameters. For each
 * {@code EffectHandler<T>} bean, Jackson's binding of {@code T}, which the outbox writes and reads back. Registered in
 * {@code META-INF/spring/aot.factories}.
 */
final class HandlerAotProcessor implements BeanRegistrationAotProcessor {
  private static final BindingReflectionHintsRegistrar BINDING = new BindingReflectionHintsRegistrar();
  /** The libraries that read their own types (stripe-java's, through hookledger-stripe): not Jackson's to bind. */
  private static final List<LibraryParameters> LIBRARIES = ServiceLoader.load(LibraryParameters.class,
      HandlerAotProcessor.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();

  @Override
  public BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
    Class<?> type = ClassUtils.getUserClass(bean.getBeanClass());
    Class<?> effect = bean.getBeanType().as(EffectHandler.class).resolveGeneric(0);
    boolean handler = HandlerBeans.declaresOnEvent(type);
    if (!handler && effect == null) {
      return null;
    }
    return (generation, code) -> {
      if (handler) {
        register(generation.getRuntimeHints(), type);
      }
      if (effect != null) {
        registerPayload(generation.getRuntimeHints().reflection(), effect);
      }
    };
  }

  /** The reflection {@code handlerType}'s {@code @OnEvent} methods and their payload types need. */
  static void register(RuntimeHints hints, Class<?> handlerType) {
    ReflectionHints reflection = hints.reflection();
    for (Class<?> c = handlerType; c != null && c != Object.class; c = c.getSuperclass()) {
      reflection.registerType(c, MemberCategory.INTROSPECT_DECLARED_METHODS);
      for (Method m : c.getDeclaredMethods()) {
        if (m.isAnnotationPresent(OnEvent.class) && !m.isBridge() && !m.isSynthetic()) {
          reflection.registerMethod(m, ExecutableMode.INVOKE);
          for (Type parameter : m.getGenericParameterTypes()) {
            registerPayload(reflection, parameter);
          }
        }
      }
    }
  }

  /** Packages of the parameter types the runtime supplies itself ({@code WebhookEvent}, {@code EventContext}, ...). */
  private static final Set<String> SUPPLIED = Set.of("dev.hookledger", "dev.hookledger.runtime", "dev.hookledger.spi");

  /** Binding hints for a parameter of the application's own type, or for its type arguments ({@code List<Invoice>}). */
  private static void registerPayload(ReflectionHints reflection, Type parameter) {
    if (parameter instanceof ParameterizedType p && !isPayload(p)) {
      for (Type argument : p.getActualTypeArguments()) {
        registerPayload(reflection, argument);
      }
    } else if (isPayload(parameter)) {
      BINDING.registerReflectionHints(reflection, parameter);
    }
  }

  /** Whether a parameter is the application's own type, which Jackson binds (not the runtime's or a library's). */
  private static boolean isPayload(Type parameter) {
    Class<?> raw = ResolvableType.forType(parameter).toClass();
    String name = raw.getName();
    return !raw.isPrimitive() && !SUPPLIED.contains(raw.getPackageName()) && !name.startsWith("java.")
        && !name.startsWith("com.fasterxml.jackson.") && !name.startsWith("org.jooq.")
        && !name.startsWith("org.springframework.") && LIBRARIES.stream().noneMatch(l -> l.supplies(raw));
  }
}
