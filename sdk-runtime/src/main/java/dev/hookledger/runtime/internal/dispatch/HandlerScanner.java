package dev.hookledger.runtime.internal.dispatch;

import dev.hookledger.HandlerRegistrationException;
import dev.hookledger.OnEvent;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds and validates the {@code @OnEvent} methods of a handler class, once per class. Walks the
 * class, its superclasses and its interfaces; skips bridge and synthetic methods; where an
 * annotated method is overridden by another annotated one, the most specific wins (the method is
 * called virtually, so an override without the annotation still runs through the annotated one).
 */
final class HandlerScanner {
  private static final ClassValue<List<HandlerTemplate>> TEMPLATES = new ClassValue<>() {
    @Override
    protected List<HandlerTemplate> computeValue(Class<?> type) {
      return scan(type);
    }
  };

  /** The longest {@code @OnEvent(name)}: a key column of the ledger, shown in one line of the page. */
  static final int MAX_NAME_LENGTH = 200;

  private HandlerScanner() {}

  /**
   * The validated methods of {@code type}, in a stable order (method name, then parameter types).
   *
   * @throws HandlerRegistrationException naming the first method that breaks a rule
   */
  static List<HandlerTemplate> templates(Class<?> type) {
    return TEMPLATES.get(type);
  }

  private static List<HandlerTemplate> scan(Class<?> type) {
    Map<String, Method> annotated = new LinkedHashMap<>();
    for (Class<?> c : hierarchy(type)) {
      Method[] declared = c.getDeclaredMethods();
      Arrays.sort(declared, Comparator.comparing(HandlerScanner::signature));
      for (Method m : declared) {
        if (m.isBridge() || m.isSynthetic() || !m.isAnnotationPresent(OnEvent.class)) {
          continue;
        }
        // private and static methods override nothing: keep each, so that it is rejected
        String key = Modifier.isPrivate(m.getModifiers()) || Modifier.isStatic(m.getModifiers())
            ? c.getName() + "#" + signature(m) : signature(m);
        annotated.putIfAbsent(key, m);
      }
    }
    List<HandlerTemplate> templates = new ArrayList<>();
    for (Method m : annotated.values()) {
      templates.add(template(m));
    }
    templates.sort(Comparator.comparing(HandlerTemplate::methodName).thenComparing(HandlerTemplate::parameterTypes));
    return List.copyOf(templates);
  }

  private static HandlerTemplate template(Method m) {
    String description = MethodDescription.of(m);
    String prefix = "@OnEvent method '" + description + "': ";
    int modifiers = m.getModifiers();
    if (Modifier.isPrivate(modifiers)) {
      throw new HandlerRegistrationException(prefix
          + "must not be private (hookledger calls it from outside the class: make it package-private or public)");
    }
    if (Modifier.isStatic(modifiers)) {
      throw new HandlerRegistrationException(prefix
          + "must not be static (it is called on the registered handler instance: remove 'static')");
    }
    if (Modifier.isAbstract(modifiers)) {
      throw new HandlerRegistrationException(prefix
          + "must not be abstract (annotate the method that implements it)");
    }
    if (m.getReturnType() != void.class) {
      throw new HandlerRegistrationException(prefix + "must return void (a result would be ignored), but returns "
          + m.getReturnType().getSimpleName());
    }
    OnEvent on = m.getAnnotation(OnEvent.class);
    if (on.value().length == 0) {
      throw new HandlerRegistrationException(prefix
          + "names no event type (give at least one, e.g. @OnEvent(\"invoice.paid\"), or \"*\" for every type)");
    }
    List<TypePattern> patterns = new ArrayList<>();
    for (String text : on.value()) {
      try {
        patterns.add(TypePattern.parse(text));
      } catch (IllegalArgumentException e) {
        throw new HandlerRegistrationException(prefix + e.getMessage());
      }
    }
    List<ParameterSpec> parameters = new ArrayList<>();
    for (int i = 0; i < m.getParameterCount(); i++) {
      parameters.add(ParameterSpec.of(m, i, prefix));
    }
    return new HandlerTemplate(description, name(m, on, prefix), m.getName(), Arrays.toString(m.getParameterTypes()), List.copyOf(patterns),
        on.provider(), on.skipStale(), List.copyOf(parameters), handle(m, prefix));
  }

  /**
   * {@code @OnEvent(name)}, else the declaring class and method: the declaring class, not the
   * registered instance's, so that a framework's proxy subclass does not rename the handler.
   */
  private static String name(Method m, OnEvent on, String prefix) {
    String name = on.name();
    if (name.isEmpty()) {
      return m.getDeclaringClass().getName() + "#" + m.getName();
    }
    if (name.isBlank() || !name.equals(name.strip()) || name.length() > MAX_NAME_LENGTH) {
      throw new HandlerRegistrationException(prefix + "name '" + name + "' must not be blank, start or end with"
          + " white space, or be longer than " + MAX_NAME_LENGTH + " characters");
    }
    return name;
  }

  /** {@code (Object receiver, Object[] args) void}, prepared once. */
  private static MethodHandle handle(Method m, String prefix) {
    try {
      // on the module path, hookledger's module reads the handler's module only when told to (a no-op on
      // the class path); the handler's package must still be open to it
      HandlerScanner.class.getModule().addReads(m.getDeclaringClass().getModule());
      MethodHandle h = MethodHandles.privateLookupIn(m.getDeclaringClass(), MethodHandles.lookup()).unreflect(m);
      return h.asSpreader(Object[].class, m.getParameterCount())
          .asType(MethodType.methodType(void.class, Object.class, Object[].class));
    } catch (IllegalAccessException e) {
      throw new HandlerRegistrationException(prefix + "cannot be accessed (" + e.getMessage()
          + "): make it public, or open its package to hookledger's module", e);
    }
  }

  private static String signature(Method m) {
    return m.getName() + Arrays.toString(m.getParameterTypes());
  }

  /** The class, its superclasses, then every interface, most specific first; JDK types excluded. */
  private static Set<Class<?>> hierarchy(Class<?> type) {
    Set<Class<?>> out = new LinkedHashSet<>();
    Deque<Class<?>> interfaces = new ArrayDeque<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      out.add(c);
      interfaces.addAll(Arrays.asList(c.getInterfaces()));
    }
    while (!interfaces.isEmpty()) {
      Class<?> i = interfaces.removeFirst();
      if (!i.getName().startsWith("java.") && out.add(i)) {
        interfaces.addAll(Arrays.asList(i.getInterfaces()));
      }
    }
    return out;
  }
}
