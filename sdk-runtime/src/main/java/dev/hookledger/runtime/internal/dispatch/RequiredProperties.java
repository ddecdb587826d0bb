package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyName;
import com.fasterxml.jackson.databind.introspect.AnnotatedParameter;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.lang.reflect.Executable;
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
 * <p>Required: every record component, and every {@code @JsonCreator} parameter of a class, that is
 * neither {@code @Nullable} nor {@code Optional}; and every property marked
 * {@code @JsonProperty(required = true)}. Nested records and classes, and the elements of arrays and
 * collections of them, are checked wherever they are present. Immutable once built.
 */
final class RequiredProperties {
  private final String typeName;
  private final List<Property> properties = new ArrayList<>();

  /**
   * One property: its JSON names, whether it must be present, and what to check inside it.
   *
   * @param segment the name as a JSON Pointer segment ({@code ~} and {@code /} escaped)
   */
  private record Property(String name, String segment, List<String> aliases, boolean required, Holder nested,
      boolean elements) {}

  /** Lets a type refer to itself (a tree of comments) without building forever. */
  private static final class Holder {
    RequiredProperties plan;
  }

  private RequiredProperties(String typeName) {
    this.typeName = typeName;
  }

  /** The plan for {@code type}; empty when it is not a record or class whose properties can be checked. */
  static Optional<RequiredProperties> of(JavaType type, ObjectMapper mapper) {
    Holder holder = plan(type, mapper, new HashMap<>());
    return holder == null ? Optional.empty() : Optional.ofNullable(holder.plan);
  }

  /**
   * Checks {@code node}, found at JSON Pointer {@code path}.
   *
   * @return empty when every required property is there; otherwise the first one missing, described
   */
  Optional<String> missing(JsonNode node, String path) {
    for (Property p : properties) {
      JsonNode value = find(node, p);
      if (value == null || value.isNull()) {
        if (p.required()) {
          return Optional.of("required property '" + p.name() + "' of " + typeName + " is "
              + (value == null ? "absent" : "null") + " at " + path + "/" + p.segment());
        }
        continue;
      }
      RequiredProperties nested = p.nested() == null ? null : p.nested().plan;
      if (nested == null) {
        continue;
      }
      String at = path + "/" + p.segment();
      if (p.elements() && value.isArray()) {
        for (int i = 0; i < value.size(); i++) {
          if (value.get(i).isObject()) {
            Optional<String> inner = nested.missing(value.get(i), at + "/" + i);
            if (inner.isPresent()) {
              return inner;
            }
          }
        }
      } else if (!p.elements() && value.isObject()) {
        Optional<String> inner = nested.missing(value, at);
        if (inner.isPresent()) {
          return inner;
        }
      }
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
    for (BeanPropertyDefinition definition : description.findProperties()) {
      boolean required = type.getRawClass().isRecord()
          ? components.containsKey(definition.getInternalName())
              && !Nullability.mayBeAbsent(components.get(definition.getInternalName()))
          : definition.isRequired() || requiredCreatorParameter(definition.getConstructorParameter());
      JavaType propertyType = definition.getPrimaryType();
      boolean elements = propertyType.isArrayType() || propertyType.isCollectionLikeType();
      Holder nested = plan(elements ? propertyType.getContentType() : propertyType, mapper, seen);
      if (required || nested != null) {
        List<String> aliases = new ArrayList<>();
        for (PropertyName alias : definition.findAliases()) {
          aliases.add(alias.getSimpleName());
        }
        String name = definition.getName();
        plan.properties.add(new Property(name, name.replace("~", "~0").replace("/", "~1"), List.copyOf(aliases),
            required, nested, elements));
      }
    }
    holder.plan = plan.properties.isEmpty() ? null : plan;
    return holder;
  }

  private static boolean requiredCreatorParameter(AnnotatedParameter parameter) {
    if (parameter == null || !(parameter.getOwner().getAnnotated() instanceof Executable creator)
        || !creator.isAnnotationPresent(JsonCreator.class)) {
      return false;
    }
    return !Nullability.mayBeAbsent(creator.getParameters()[parameter.getIndex()]);
  }

  /** Records and concrete classes outside the JDK; not JSON trees, containers, enums or a library's own types. */
  static boolean checkable(Class<?> type) {
    return type != null && !type.isPrimitive() && !type.isArray() && !type.isEnum() && !type.isInterface()
        && !Modifier.isAbstract(type.getModifiers())
        && !type.getName().startsWith("java.") && !type.getName().startsWith("javax.")
        && !type.getName().startsWith("com.fasterxml.") && LibraryParameters.of(type).isEmpty();
  }
}
