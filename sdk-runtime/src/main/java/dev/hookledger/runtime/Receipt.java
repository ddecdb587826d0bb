package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookEvent;

/**
 * What {@link WebhookRuntime#receive} did with one verified delivery. Every outcome is answered 200:
 * the ledger holds the event, committed, before a receipt exists.
 *
 * @param outcome what happened; never null
 * @param event the verified event; never null
 */
public record Receipt(Outcome outcome, WebhookEvent event) {

  public Receipt {
    requireNonNull(outcome, "outcome");
    requireNonNull(event, "event");
  }

  /** What happened to a verified delivery. */
  public enum Outcome {
    /** New to the ledger and committed; its handlers run after the answer ({@link ProcessingMode#STORE_FIRST}). */
    ACCEPTED,
    /** The ledger already had this event; nothing was changed and no handler ran. */
    DUPLICATE,
    /** New, and its handlers ran and committed with the row before the answer ({@link ProcessingMode#INLINE}). */
    PROCESSED,
    /**
     * New, and recorded settled ({@code ignored}, source {@code shadow}) without running any handler
     * ({@link ProcessingMode#SHADOW}): the application's existing endpoint handles it, and switching to
     * enforcing never runs it.
     */
    SHADOWED
  }
}
