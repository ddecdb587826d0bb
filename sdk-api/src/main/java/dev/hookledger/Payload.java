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
 * <p>Absence fails loudly: when nothing is at the pointer (or JSON {@code null} is), the attempt
 * fails and the event is retried, then kept as {@code dead}, unless the parameter is an
 * {@code Optional} or is annotated {@code @Nullable} (any annotation of that simple name). The same
 * holds for the required properties of a record or class (see {@link #strict()}).
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
   * Whether a record or class parameter must find each of its required properties in the payload;
   * default true. Required are: every record component, and every {@code @JsonCreator} parameter of a
   * class, that is neither annotated {@code @Nullable} nor of an {@code Optional} type; and every
   * property annotated {@code @JsonProperty(required = true)}. Nested records and classes (and the
   * elements of their lists) are checked the same way. A required property that is absent or JSON
   * {@code null} fails the attempt with a message naming the property and its JSON path, instead of
   * becoming {@code null} or {@code 0} and settling {@code done} after a handler that did nothing.
   *
   * <p>{@code false} maps as Jackson does by itself: absent properties become {@code null},
   * {@code 0} or {@code false}. Prefer marking the one component that may be absent
   * {@code @Nullable}.
   */
  boolean strict() default true;
}
