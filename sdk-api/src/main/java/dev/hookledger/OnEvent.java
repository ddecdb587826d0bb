package dev.hookledger;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method that handles webhook events of the given types.
 *
 * <pre>{@code
 * class Billing {
 *   @OnEvent("invoice.paid")
 *   void paid(@Payload("/data/object") Invoice invoice, DSLContext tx) {
 *     tx.update(BALANCE).set(...).execute();   // commits together with the ledger row
 *   }
 * }
 * }</pre>
 *
 * <p>Types are the provider's canonical types ({@code invoice.paid}, {@code issues.opened},
 * {@code orders/create}). A pattern may end in {@code *} ({@code "invoice.*"}), and {@code "*"} matches
 * every type. All methods that match one event run in the same transaction, in a stable order (by
 * class name, then method name), and commit or roll back with the ledger row that records the event.
 *
 * <p>Parameters are supplied by type: the payload as {@code JsonNode} or mapped by Jackson to any
 * class or record (the part a {@link Payload} pointer names, or the whole of it; required properties
 * must be present), {@link WebhookEvent}, {@link EventContext}, jOOQ's {@code DSLContext} of the
 * transaction, and {@code java.sql.Connection}. Methods must not be private, static or abstract;
 * a method that breaks a rule fails registration with a {@link HandlerRegistrationException}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OnEvent {
  /** The event types or patterns this method handles; at least one. */
  String[] value();

  /** The provider id ({@code stripe}, {@code github}, {@code shopify}) this method is limited to; empty for any. */
  String provider() default "";

  /**
   * When true, the method only sees the newest state of an entity: an event whose entity version
   * is older than the version already applied for that entity skips this method. Equal versions are
   * not stale. An event that every matching method skips settles as {@code stale}.
   */
  boolean skipStale() default false;

  /**
   * The handler's stable name in the ledger, which records each event this method has applied (so
   * that live processing, retries, replays and backfills never apply it to one event twice) and by
   * which {@code hookledger backfill --handler} names it. Empty (the default) means
   * {@code fully.qualified.DeclaringClass#method}; give one to keep the record when the class or
   * method is renamed or moved, or to tell overloads apart. Unique among the registered methods,
   * not blank, no surrounding white space, at most 200 characters: registration fails otherwise.
   */
  String name() default "";
}
