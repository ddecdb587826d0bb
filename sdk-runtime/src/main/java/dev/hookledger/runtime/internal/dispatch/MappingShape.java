package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.BuilderBasedDeserializer;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import dev.hookledger.internal.Json;

/**
 * Whether hookledger can see which properties a type needs, asked of the deserializer the mapper
 * would really use: a record, or a class Jackson fills property by property (through a creator that
 * takes the properties, or a no-argument constructor and setters or fields), is checked; a class
 * Jackson would fill but whose properties cannot be seen (built by a builder or from a delegate, or
 * with no constructor Jackson can fill by name) is refused when the handler is registered rather
 * than mapped to silent defaults. A value type is taken as its deserializer reads it, its presence
 * checked but not its inside: one read by its own deserializer (a module's for dates or money, or
 * {@code @JsonDeserialize(using = ...)}) or built from a JSON string or number only. Also finds a
 * JavaBean's declared defaults (its field initializers), which make a property optional.
 */
final class MappingShape {
  private static final String BUILDER_FIX = "; take a JsonNode and read it yourself, map a record or a class"
      + " Jackson builds property by property, or map it unchecked with @Payload(strict = false)";
  private static final String CREATOR_FIX = "; give it a constructor that takes its properties (@JsonCreator with"
      + " @JsonProperty names, or compiled with -parameters), or a no-argument constructor and setters, or make it"
      + " a record";

  /** A type whose properties cannot be checked; the message names it, why, and how to make it checkable. */
  static final class Uncheckable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Uncheckable(String type, String why) {
      super("hookledger cannot check which properties " + type + " needs: " + why, null, false, false);
    }
  }

  private MappingShape() {}

  /**
   * Whether {@code type} has properties to check: true when the mapper builds it property by
   * property, false for a value type (read by its own deserializer, or from scalars only).
   *
   * @throws Uncheckable if Jackson would fill it but its properties cannot be seen; names the type and the fix
   */
  static boolean hasProperties(JavaType type, ObjectMapper mapper) {
    String name = type.getRawClass().getSimpleName();
    JsonDeserializer<?> deserializer;
    try {
      deserializer = ((DefaultDeserializationContext) mapper.getDeserializationContext())
          .createDummyInstance(mapper.getDeserializationConfig()).findRootValueDeserializer(type);
    } catch (DatabindException e) {
      throw new Uncheckable(name, "Jackson cannot read it (" + Json.describe(e) + ")" + CREATOR_FIX);
    }
    if (deserializer instanceof BuilderBasedDeserializer) {
      throw new Uncheckable(name, "it is built by a builder (@JsonDeserialize(builder = ...))" + BUILDER_FIX);
    }
    if (!(deserializer instanceof BeanDeserializerBase bean)) {
      return false; // its own deserializer reads the whole value, as a date or an amount is read
    }
    ValueInstantiator creator = bean.getValueInstantiator();
    if (creator.canCreateUsingDelegate() || creator.canCreateUsingArrayDelegate()) {
      throw new Uncheckable(name, "it is built from a delegate (a @JsonCreator(mode = DELEGATING) or single-argument"
          + " constructor)" + CREATOR_FIX);
    }
    if (!creator.canCreateUsingDefault() && !creator.canCreateFromObjectWith()) {
      if (creator.canCreateFromString() || creator.canCreateFromLong() || creator.canCreateFromInt()
          || creator.canCreateFromDouble() || creator.canCreateFromBigInteger() || creator.canCreateFromBigDecimal()
          || creator.canCreateFromBoolean()) {
        return false; // a value built from a string or a number: no properties
      }
      throw new Uncheckable(name, "Jackson finds no constructor it can fill from a JSON object (parameter names are"
          + " known only with @JsonProperty, or with -parameters and jackson-module-parameter-names)" + CREATOR_FIX);
    }
    return true;
  }

  /**
   * Whether the property is {@code @JsonUnwrapped}: its own properties sit beside those of its owner.
   *
   * @throws Uncheckable if it renames them with a prefix or suffix, which the check does not follow
   */
  static boolean unwrapped(BeanPropertyDefinition property, String owner) {
    AnnotatedMember member = property.getPrimaryMember();
    JsonUnwrapped unwrapped = member == null ? null : member.getAnnotation(JsonUnwrapped.class);
    if (unwrapped == null || !unwrapped.enabled()) {
      return false;
    }
    if (!unwrapped.prefix().isEmpty() || !unwrapped.suffix().isEmpty()) {
      throw new Uncheckable(owner, "its property '" + property.getName() + "' is @JsonUnwrapped with a prefix or"
          + " suffix; unwrap it without one, or map a record of its own under @Payload");
    }
    return true;
  }

  /**
   * A fresh instance of a JavaBean, made as Jackson makes one, whose field values are its declared
   * defaults; {@code null} for records and creators, or when it cannot be made.
   */
  static Object defaults(BeanDescription description) {
    if (description.getType().isRecordType() || description.findDefaultConstructor() == null) {
      return null;
    }
    try {
      return description.instantiateBean(true);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Whether a JavaBean property starts with a value of its own (not {@code null}, zero or {@code false}). */
  static boolean hasDefault(BeanPropertyDefinition property, Object defaults) {
    AnnotatedMember accessor = property.hasField() ? property.getField() : property.getGetter();
    if (defaults == null || accessor == null || property.hasConstructorParameter()) {
      return false;
    }
    try {
      accessor.fixAccess(true);
      Object value = accessor.getValue(defaults);
      return value != null && !Boolean.FALSE.equals(value) && !Character.valueOf('\0').equals(value)
          && !(value instanceof Number n && n.doubleValue() == 0);
    } catch (RuntimeException e) {
      return false;
    }
  }
}
