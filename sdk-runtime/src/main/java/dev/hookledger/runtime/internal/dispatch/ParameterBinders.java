package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.EventContext;
import dev.hookledger.Outbox;
import dev.hookledger.WebhookEvent;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.sql.Connection;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;
import org.jooq.DSLContext;

/** Chooses, by a parameter's declared type, what a handler method receives there. */
final class ParameterBinders {
  /** The list every "no value can be supplied" message ends with. */
  static final String SUPPORTED = "JsonNode, WebhookEvent, EventContext, Outbox, DSLContext, Connection, a class or record"
      + " Jackson can read, " + Libraries.all().stream().map(l -> l.described() + ", ")
          .collect(java.util.stream.Collectors.joining()) + "or any type Jackson can read with @Payload(\"/pointer\")";

  private ParameterBinders() {}

  /** The binder for a type hookledger supplies by itself (the payload tree, the transaction, ...), or empty. */
  static Optional<ParameterBinder> supplied(Class<?> type) {
    if (type == JsonNode.class) {
      return Optional.of(inv -> inv.event().payload());
    } else if (type == WebhookEvent.class) {
      return Optional.of(Invocation::event);
    } else if (type == EventContext.class) {
      return Optional.of(Invocation::context);
    } else if (type == Outbox.class) {
      return Optional.of(Invocation::outbox);
    } else if (type == DSLContext.class) {
      return Optional.of(Invocation::tx);
    } else if (type == Connection.class) {
      return Optional.of(Invocation::connection);
    }
    return Optional.empty();
  }

  /**
   * A concrete class or record outside the JDK that Jackson can build: a record, or a class with a
   * no-argument constructor or a {@code @JsonCreator}. Interfaces, abstract classes, inner
   * (non-static) classes, enums, arrays and JDK types (the payload is a JSON object, not a string)
   * cannot be. Whether the runtime's mapper can read it is asked when the runtime is built.
   */
  static boolean jacksonReadable(Class<?> type) {
    if (type.isPrimitive() || type.isArray() || type.isInterface() || type.isEnum()
        || Modifier.isAbstract(type.getModifiers()) || type.isAnonymousClass() || type.isLocalClass()
        || (type.isMemberClass() && !Modifier.isStatic(type.getModifiers()))
        || type.getName().startsWith("java.") || type.getName().startsWith("javax.")) {
      return false;
    }
    boolean constructible = type.isRecord()
        || Arrays.stream(type.getDeclaredConstructors()).anyMatch(c -> c.getParameterCount() == 0)
        || namedSingleConstructor(type)
        || Stream.concat(Arrays.stream(type.getDeclaredConstructors()), Arrays.stream(type.getDeclaredMethods())
                .filter(m -> Modifier.isStatic(m.getModifiers())))
            .anyMatch(ParameterBinders::isCreator);
    return constructible;
  }

  /** One constructor whose parameter names were compiled in ({@code -parameters}): Jackson can fill it by name. */
  private static boolean namedSingleConstructor(Class<?> type) {
    Constructor<?>[] constructors = type.getDeclaredConstructors();
    // one parameter is ambiguous to Jackson (a delegate or a property): only several are filled by name for sure
    return constructors.length == 1 && constructors[0].getParameterCount() > 1
        && Arrays.stream(constructors[0].getParameters()).allMatch(Parameter::isNamePresent);
  }

  private static boolean isCreator(Executable e) {
    return e.isAnnotationPresent(JsonCreator.class) && (!(e instanceof Method m) || m.getReturnType() != void.class);
  }
}
