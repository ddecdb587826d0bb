package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.HandlerRegistrationException;
import dev.hookledger.Payload;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Optional;

/**
 * One parameter of an {@code @OnEvent} method, validated when its class is scanned: either a value
 * hookledger supplies (the transaction, the event, its context), or a part of the payload, named by
 * {@link Payload} or the whole of it. Its binder is made when a runtime is built, with that runtime's
 * {@code ObjectMapper}. Immutable.
 */
final class ParameterSpec {
  private enum Kind { SUPPLIED, LIBRARY, JACKSON }

  private static final String ROOT_HINT = "; to map a part of the payload, name it with @Payload"
      + " (the object inside an event's envelope: @Payload(\"/data/object\"), say); if the property may be absent, mark it @Nullable"
      + " or make it Optional";
  private static final String POINTER_HINT = "; if it may be absent, mark it @Nullable or make it Optional";
  private static final String ABSENT_HINT = "; if it may be absent, make the parameter Optional or mark it @Nullable";

  private final String prefix;
  private final int position;
  private final Kind kind;
  private final ParameterBinder supplied;
  private final Class<?> raw;
  private final Type target;
  private final JsonPointer pointer;
  private final boolean annotated;
  private final boolean strict;
  private final boolean optional;
  private final boolean nullable;

  private ParameterSpec(String prefix, int position, Kind kind, ParameterBinder supplied, Class<?> raw, Type target,
      JsonPointer pointer, boolean annotated, boolean strict, boolean optional, boolean nullable) {
    this.prefix = prefix;
    this.position = position;
    this.kind = kind;
    this.supplied = supplied;
    this.raw = raw;
    this.target = target;
    this.pointer = pointer;
    this.annotated = annotated;
    this.strict = strict;
    this.optional = optional;
    this.nullable = nullable;
  }

  /**
   * Validates parameter {@code index} of {@code m}.
   *
   * @param prefix how messages begin: {@code @OnEvent method '...': }
   * @throws HandlerRegistrationException naming the parameter and the rule
   */
  static ParameterSpec of(Method m, int index, String prefix) {
    Parameter p = m.getParameters()[index];
    Class<?> type = p.getType();
    int position = index + 1;
    Payload payload = p.getAnnotation(Payload.class);
    String at = prefix + "parameter " + position + " of type " + type.getSimpleName() + ": ";
    Optional<ParameterBinder> supplied = ParameterBinders.supplied(type);
    if (supplied.isPresent() && !(type == JsonNode.class && payload != null)) {
      if (payload != null) {
        throw new HandlerRegistrationException(at + "@Payload cannot apply: hookledger supplies a "
            + type.getSimpleName() + " itself (remove @Payload)");
      }
      return new ParameterSpec(prefix, position, Kind.SUPPLIED, supplied.get(), type, type, null, false, true, false, false);
    }
    JsonPointer pointer = payload == null || payload.value().isEmpty() ? null : pointer(payload.value(), at);
    boolean optional = payload != null && type == Optional.class;
    Type target = optional ? optionalContent(p, at) : p.getParameterizedType();
    Class<?> targetRaw = optional ? rawOf(target) : type;
    boolean nullable = Nullability.markedNullable(p);
    if (nullable && type.isPrimitive()) {
      throw new HandlerRegistrationException(at + "is @Nullable, but a " + type.getSimpleName()
          + " cannot be null (use " + boxed(type.getSimpleName()) + ")");
    }
    boolean strict = payload == null || payload.strict();
    if (Libraries.of(targetRaw).isPresent()) {
      return new ParameterSpec(prefix, position, Kind.LIBRARY, null, targetRaw, target, pointer, payload != null, strict,
          optional, nullable);
    }
    if (payload == null && !ParameterBinders.jacksonReadable(type)) {
      throw new HandlerRegistrationException(prefix + "no value can be supplied for parameter " + position
          + " of type " + type.getSimpleName() + " (supported: " + ParameterBinders.SUPPORTED + ")");
    }
    return new ParameterSpec(prefix, position, Kind.JACKSON, null, targetRaw, target, pointer, payload != null, strict,
        optional, nullable);
  }

  /**
   * The binder for this parameter in a runtime that maps with {@code mapper}.
   *
   * @throws HandlerRegistrationException if the mapper cannot read the parameter's type
   */
  ParameterBinder binder(ObjectMapper mapper) {
    // lenient mapping lets an absent part be null, as Jackson alone would; a primitive still cannot be
    PayloadAbsence absence = new PayloadAbsence(optional, nullable || (!strict && !raw.isPrimitive()),
        pointer == null ? "" : pointer.toString(), ABSENT_HINT, raw.isPrimitive() ? raw.getSimpleName() : null);
    switch (kind) {
      case SUPPLIED:
        return supplied;
      case LIBRARY:
        return Libraries.binder(Libraries.of(raw).orElseThrow(), raw, pointer, absence);
      default:
        JavaType type = mapper.getTypeFactory().constructType(target);
        // deprecated since Jackson 2.18 with no replacement of the same meaning (a deserializer can be found)
        @SuppressWarnings("deprecation")
        boolean readable = mapper.canDeserialize(type);
        if (!readable) {
          throw new HandlerRegistrationException(prefix + "no value can be supplied for parameter " + position
              + " of type " + raw.getSimpleName() + " (supported: " + ParameterBinders.SUPPORTED + ")");
        }
        RequiredProperties required;
        try {
          required = strict ? RequiredProperties.of(type, mapper).orElse(null) : null;
        } catch (MappingShape.Uncheckable e) {
          throw new HandlerRegistrationException(prefix + this + ": " + e.getMessage());
        }
        return new PayloadReader(pointer,
            mapper.readerFor(type).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES),
            required, absence, raw.getSimpleName(), annotated ? POINTER_HINT : ROOT_HINT);
    }
  }

  private static JsonPointer pointer(String text, String at) {
    if (!text.startsWith("/")) {
      throw new HandlerRegistrationException(at + "@Payload(\"" + text + "\") is not a JSON Pointer: it must be"
          + " empty or start with '/', as in @Payload(\"/data/object\")");
    }
    for (int i = text.indexOf('~'); i >= 0; i = text.indexOf('~', i + 1)) {
      if (i + 1 >= text.length() || (text.charAt(i + 1) != '0' && text.charAt(i + 1) != '1')) {
        throw new HandlerRegistrationException(at + "@Payload(\"" + text + "\") is not a JSON Pointer: '~' must be"
            + " followed by 0 or 1 (~0 stands for '~', ~1 for '/')");
      }
    }
    return JsonPointer.compile(text);
  }

  private static Type optionalContent(Parameter p, String at) {
    if (p.getParameterizedType() instanceof ParameterizedType generic) {
      return generic.getActualTypeArguments()[0];
    }
    throw new HandlerRegistrationException(at + "a raw Optional says nothing to map to (use Optional<Invoice>)");
  }

  private static Class<?> rawOf(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType generic && generic.getRawType() instanceof Class<?> c) {
      return c;
    }
    return Object.class;
  }

  /** The boxed type's simple name for a primitive's: {@code long} gives {@code Long}. */
  static String boxed(String primitive) {
    return primitive.equals("int") ? "Integer" : primitive.equals("char") ? "Character"
        : Character.toUpperCase(primitive.charAt(0)) + primitive.substring(1);
  }

  @Override
  public String toString() {
    return "parameter " + position + " (" + raw.getSimpleName() + ")";
  }
}
