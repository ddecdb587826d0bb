package dev.hookledger.runtime;

/**
 * When an event's handlers run, relative to the HTTP answer.
 */
public enum ProcessingMode {
  /**
   * The default. The event is committed to the ledger, the provider is answered 200, and a worker
   * runs the handlers at once; failures are retried with backoff. The answer never depends on a
   * handler, so the provider's timeout (Shopify: 5 s) is never at risk.
   */
  STORE_FIRST,

  /**
   * The handlers run inside the request's transaction: the row and the handlers' writes commit
   * together before the answer, and a failure rolls both back and answers 500 so that the provider
   * retries. Unsafe for providers that do not retry (an adapter whose
   * {@code redeliversOnFailure()} is false, such as GitHub's; the runtime warns at start-up): a
   * failure there loses the event until someone redelivers it by hand.
   */
  INLINE,

  /**
   * For adopting hookledger in front of an existing endpoint: each delivery is verified and
   * recorded, then the request is passed on to the application's existing handler (body readable
   * again) instead of being dispatched; the filter answers nothing. New events are recorded settled
   * ({@code ignored}, source {@code shadow}), so that switching to an enforcing mode never runs
   * them again; duplicates are passed on and counted in the ledger. A delivery enforcing would
   * refuse is passed on as well, reported to the listener as {@code rejected} and logged. See
   * {@link WebhookFilter}.
   */
  SHADOW
}
