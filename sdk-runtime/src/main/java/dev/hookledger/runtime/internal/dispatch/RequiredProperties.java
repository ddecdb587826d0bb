package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyName;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The properties a record or class needs from the payload, found once through the mapper's own
 * introspection (so {@code @JsonProperty} names, {@code @JsonNaming} strategies and aliases count),
 * and checked against each payload before Jackson maps it. Jackson alone turns an absent property
 * into {@code null} or {@code 0}: for a payment that is a handler that does nothing and an event that
 * settles {@code done}, so here absence fails the attempt instead, naming the property and its path.
 *
 * <p>The rule is Jackson's {@code FAIL_ON_MISSING_CREATOR_PROPERTIES} with
 * {@code FAIL_ON_NULL_FOR_PRIMITIVES}, for every shape Jackson fills (records, creators, constructors
 * with compiled-in parameter names, JavaBeans): a property Jackson would set is required unless it is
 * optional ({@link Nullability}); a property present as JSON {@code null} is {@code null} for a
 * reference type and fails for a primitive. Nested records and classes, and the elements of arrays,
 * collections and maps of them, are checked wherever they are present. A shape whose properties
 * cannot be seen is refused when the plan is made, and a value type read by its own deserializer is
 * checked for presence only ({@link MappingShape}). Immutable once built.
 */
final class RequiredProperties {
  private final String typeName;
  private final List<Property> properties = new ArrayList<>();

  /** What a payload lacks: the message, and whether it is really absent (so that "may be absent" advice fits). */
  record Problem(String message, boolean absent) {}

  /** Where a property's nested plan applies: its value, each element, each map value, or (unwrapped) the object itself. */
  private enum Within { VALUE, ELEMENTS, MAP_VALUES, UNWRAPPED }

  /**
   * One property: its JSON names, whether it must be present, and what to check inside it.
   *
   * @param segment the name as a JSON Pointer segment ({@code ~} and {@code /} escaped)
   * @param primitive the primitive type's name, or {@code null} for a reference type
   */
  private record Property(String name, String segment, List<String> aliases, boolean required, String primitive,
      Holder nested, Within within) {}

  /** Lets a type refer to itself (a tree of comments) without building forever. */
  private static final class Holder {
    RequiredProperties plan;
  }

  private RequiredProperties(String typeName) {
    this.typeName = typeName;
  }

  /**
   * The plan for {@code type}; empty when it is not a record or class whose properties can be checked.
   *
   * @throws MappingShape.Uncheckable if it, or a type inside it, is one whose properties cannot be seen
   */
  static Optional<RequiredProperties> of(JavaType type, ObjectMapper mapper) {
    Holder holder = plan(type, mapper, new HashMap<>());
    return holder == null ? Optional.empty() : Optional.ofNullable(holder.plan);
  }

  /**
   * Checks {@code node}, found at JSON Pointer {@code path}.
   *
   * @return empty when every required property is there and no primitive is null; otherwise the first problem
   */
  Optional<Problem> problem(JsonNode node, String path) {
    for (Property p : properties) {
      if (p.within() == Within.UNWRAPPED) {
        // @JsonUnwrapped: its properties sit beside this object's own
        Optional<Problem> inner = p.nested().plan == null ? Optional.empty() : p.nested().plan.problem(node, path);
        if (inner.isPresent()) {
          return inner;
        }
        continue;
      }
      JsonNode value = find(node, p);
      String at = path + "/" + p.segment();
      if (value == null) {
        if (p.required()) {
          return Optional.of(absent(node, p, at));
        }
        continue;
      }
      if (value.isNull()) {
        if (p.primitive() != null) {
          return Optional.of(new Problem("property '" + p.name() + "' of " + typeName + " is null at " + at
              + ", but a " + p.primitive() + " cannot be null (make it " + ParameterSpec.boxed(p.primitive())
              + " if the payload may say null)", false));
        }
        continue;
      }
      Optional<Problem> inner = nested(p, value, at);
      if (inner.isPresent()) {
        return inner;
      }
    }
    return Optional.empty();
  }

  private Problem absent(JsonNode node, Property p, String at) {
    Optional<NamingTwin> twin = NamingTwin.of(p.name(), node);
    if (twin.isPresent()) {
      return new Problem("required property '" + p.name() + "' of " + typeName + " is absent at " + at + ", "
          + twin.get().advice(typeName), false);
    }
    return new Problem("required property '" + p.name() + "' of " + typeName + " is absent at " + at, true);
  }

  private static Optional<Problem> nested(Property p, JsonNode value, String at) {
    RequiredProperties plan = p.nested() == null ? null : p.nested().plan;
    if (plan == null) {
      return Optional.empty();
    }
    if (p.within() == Within.ELEMENTS && value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        Optional<Problem> inner = value.get(i).isObject() ? plan.problem(value.get(i), at + "/" + i) : Optional.empty();
        if (inner.isPresent()) {
          return inner;
        }
      }
    } else if (p.within() == Within.MAP_VALUES && value.isObject()) {
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        Optional<Problem> inner = e.getValue().isObject()
            ? plan.problem(e.getValue(), at + "/" + segment(e.getKey())) : Optional.empty();
        if (inner.isPresent()) {
          return inner;
        }
      }
    } else if (p.within() == Within.VALUE && value.isObject()) {
      return plan.problem(value, at);
    }
    return Optional.empty();
  }

  private static JsonNode find(JsonNode node, Property p) {
    JsonNode value = node.get(p.name());
    for (int i = 0; value == null && i < p.aliases().size(); i++) {
      value = node.get(p.aliases().get(i));
    }
    return value;
  }

  private static Holder plan(JavaType type, ObjectMapper mapper, Map<JavaType, Holder> seen) {
    if (!checkable(type.getRawClass())) {
      return null;
    }
    Holder existing = seen.get(type);
    if (existing != null) {
      return existing;
    }
    if (!MappingShape.hasProperties(type, mapper)) {
      return null;
    }
    Holder holder = new Holder();
    seen.put(type, holder);
    RequiredProperties plan = new RequiredProperties(type.getRawClass().getSimpleName());
    BeanDescription description = mapper.getDeserializationConfig().introspect(type);
    Map<String, RecordComponent> components = new HashMap<>();
    if (type.getRawClass().isRecord()) {
      for (RecordComponent c : type.getRawClass().getRecordComponents()) {
        components.put(c.getName(), c);
      }
    }
    Object defaults = MappingShape.defaults(description);
    for (BeanPropertyDefinition definition : description.findProperties()) {
      if (!definition.hasConstructorParameter() && !definition.hasSetter() && !definition.hasField()) {
        continue; // nothing Jackson would set: a getter only
      }
      RecordComponent component = components.get(definition.getInternalName());
      boolean optional = component != null ? Nullability.mayBeAbsent(component)
          : Nullability.mayBeAbsent(definition) || MappingShape.hasDefault(definition, defaults);
      boolean required = definition.isRequired() || !optional;
      JavaType propertyType = definition.getPrimaryType();
      Within within = MappingShape.unwrapped(definition, plan.typeName) ? Within.UNWRAPPED
          : propertyType.isArrayType() || propertyType.isCollectionLikeType() ? Within.ELEMENTS
          : propertyType.isMapLikeType() ? Within.MAP_VALUES : Within.VALUE;
      Holder nested = plan(within == Within.VALUE || within == Within.UNWRAPPED ? propertyType
          : propertyType.getContentType(), mapper, seen);
      if (within == Within.UNWRAPPED) {
        if (nested != null) {
          plan.properties.add(new Property(definition.getName(), "", List.of(), false, null, nested, within));
        }
        continue;
      }
      String primitive = propertyType.isPrimitive() ? propertyType.getRawClass().getSimpleName() : null;
      if (required || nested != null || primitive != null) {
        List<String> aliases = new ArrayList<>();
        for (PropertyName alias : definition.findAliases()) {
          aliases.add(alias.getSimpleName());
        }
        String name = definition.getName();
        plan.properties.add(new Property(name, segment(name), List.copyOf(aliases), required, primitive, nested,
            within));
      }
    }
    holder.plan = plan.properties.isEmpty() ? null : plan;
    return holder;
  }

  private static String segment(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }

  /** Records and concrete classes outside the JDK; not JSON trees, containers, enums or a library's own types. */
  static boolean checkable(Class<?> type) {
    return type != null && !type.isPrimitive() && !type.isArray() && !type.isEnum() && !type.isInterface()
        && !Modifier.isAbstract(type.getModifiers())
        && !type.getName().startsWith("java.") && !type.getName().startsWith("javax.")
        && !type.getName().startsWith("com.fasterxml.") && Libraries.of(type).isEmpty();
  }
}
