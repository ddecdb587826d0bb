package dev.hookledger;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the part of the payload an {@link OnEvent} parameter receives, as a JSON Pointer
 * (RFC 6901), so that a handler takes what it means rather than the provider's envelope.
 *
 * <pre>{@code
 * @OnEvent("invoice.paid")
 * void paid(@Payload("/data/object") Invoice invoice, DSLContext tx) { ... }          // Stripe
 *
 * @OnEvent("issues.opened")
 * void opened(@Payload("/issue") Issue issue, @Payload("/repository/full_name") String repo) { ... }
 * }</pre>
 *
 * <p>The value at the pointer is mapped by Jackson to the parameter's type (a record, a class, a
 * {@code JsonNode}, a {@code String}, a number, a {@code List<...>}), or by stripe-java's own
 * deserializer for its {@code com.stripe.model} types. Where each provider keeps its object: Stripe
 * {@code /data/object}; GitHub the whole payload, with the resource under its name ({@code /issue},
 * {@code /pull_request}); Shopify the whole payload (it is the resource); Standard Webhooks
 * {@code /data}. A parameter without {@code @Payload} receives the whole payload.
 *
 * <p>Absence fails loudly: when nothing is at the pointer, the attempt fails and the event is
 * retried, then kept as {@code dead}, unless the parameter is an {@code Optional} or is annotated
 * {@code @Nullable} (any annotation of that simple name). JSON {@code null} at the pointer is
 * {@code null} (an empty {@code Optional}) for a reference type and fails for a primitive. The same
 * holds for the properties of a record or class (see {@link #strict()}).
 *
 * <p>The pointer is checked when the handler is registered: a malformed one fails with a
 * {@link HandlerRegistrationException} naming the class, the method and the parameter.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Payload {
  /** A JSON Pointer into the payload, such as {@code /data/object}; empty (the default) for the whole payload. */
  String value() default "";

  /**
   * Whether a record or class parameter is mapped by Jackson's strict rule
   * ({@code FAIL_ON_MISSING_CREATOR_PROPERTIES} with {@code FAIL_ON_NULL_FOR_PRIMITIVES}); default
   * true. Every property Jackson would set (a record component, a creator or constructor parameter,
   * a setter or field of a JavaBean) must be present in the payload, unless it is annotated
   * {@code @Nullable}, is of an {@code Optional} type, or (in a JavaBean) has a field initializer;
   * {@code @JsonProperty(required = true)} makes any property required. A property present as JSON
   * {@code null} is {@code null} for a reference type and fails for a primitive. Nested records and
   * classes (and the elements of their lists and maps) are checked the same way. A failure names the
   * property and its JSON path (and, for a camelCase/snake_case mismatch, the naming strategy that
   * fixes it) instead of becoming {@code null} or {@code 0} and settling {@code done} after a handler
   * that did nothing. A class whose properties cannot be seen (a builder, a delegating creator, no
   * constructor Jackson can fill by name) is refused at registration; a value type read by its own
   * deserializer is checked for presence only.
   *
   * <p>{@code false} maps as Jackson does by itself: absent properties become {@code null},
   * {@code 0} or {@code false}. Prefer marking the one property that may be absent
   * {@code @Nullable}.
   */
  boolean strict() default true;
}
