package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.databind.introspect.AnnotatedField;
import com.fasterxml.jackson.databind.introspect.AnnotatedMethod;
import com.fasterxml.jackson.databind.introspect.AnnotatedParameter;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Executable;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Which parameters and properties may be absent from a payload: those annotated {@code @Nullable}
 * (any annotation of that simple name, declaration or type-use: JSpecify, Jakarta, JSR-305,
 * JetBrains, ...) and those of an {@code Optional} type. Everything else is required, except a
 * JavaBean property with a declared default ({@link MappingShape#hasDefault}).
 */
final class Nullability {
  private Nullability() {}

  /** Whether a record component may be absent. */
  static boolean mayBeAbsent(RecordComponent component) {
    return isOptional(component.getType())
        || marked(component) || marked(component.getAnnotatedType())
        || marked(component.getAccessor()) || marked(component.getAccessor().getAnnotatedReturnType());
  }

  /**
   * Whether a property of a class may be absent: of an {@code Optional} type, or marked on any member
   * Jackson reads or writes it through (constructor parameter, setter, field, getter).
   */
  static boolean mayBeAbsent(BeanPropertyDefinition property) {
    if (isOptional(property.getPrimaryType().getRawClass())) {
      return true;
    }
    AnnotatedParameter creator = property.getConstructorParameter();
    if (creator != null && creator.getOwner().getAnnotated() instanceof Executable e
        && mayBeAbsent(e.getParameters()[creator.getIndex()])) {
      return true;
    }
    AnnotatedMethod setter = property.getSetter();
    if (setter != null && (marked(setter.getAnnotated()) || mayBeAbsent(setter.getAnnotated().getParameters()[0]))) {
      return true;
    }
    AnnotatedField field = property.getField();
    if (field != null && (marked(field.getAnnotated()) || marked(field.getAnnotated().getAnnotatedType()))) {
      return true;
    }
    AnnotatedMethod getter = property.getGetter();
    return getter != null && (marked(getter.getAnnotated()) || marked(getter.getAnnotated().getAnnotatedReturnType()));
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
