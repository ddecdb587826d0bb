package dev.hookledger.runtime.internal.dispatch;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Which parameters and properties may be absent from a payload: those annotated {@code @Nullable}
 * (any annotation of that simple name, declaration or type-use: JSpecify, Jakarta, JSR-305,
 * JetBrains, ...) and those of an {@code Optional} type. Everything else is required.
 */
final class Nullability {
  private Nullability() {}

  /** Whether a record component may be absent. */
  static boolean mayBeAbsent(RecordComponent component) {
    return isOptional(component.getType())
        || marked(component) || marked(component.getAnnotatedType())
        || marked(component.getAccessor()) || marked(component.getAccessor().getAnnotatedReturnType());
  }

  /** Whether a method or constructor parameter may be absent. */
  static boolean mayBeAbsent(Parameter parameter) {
    return isOptional(parameter.getType()) || marked(parameter) || marked(parameter.getAnnotatedType());
  }

  /** Whether only the parameter's annotations (not its type) say it may be absent. */
  static boolean markedNullable(Parameter parameter) {
    return marked(parameter) || marked(parameter.getAnnotatedType());
  }

  static boolean isOptional(Class<?> type) {
    return type == Optional.class || type == OptionalInt.class || type == OptionalLong.class
        || type == OptionalDouble.class;
  }

  private static boolean marked(AnnotatedElement element) {
    for (Annotation a : element.getAnnotations()) {
      if (a.annotationType().getSimpleName().equals("Nullable")) {
        return true;
      }
    }
    return false;
  }
}
