package dev.hookledger;

/**
 * The ledger database could not record or settle an event. Nothing was half-written: the
 * transaction that failed was rolled back. The filter answers 503 with {@code Retry-After}.
 */
public class LedgerUnavailableException extends WebhookException {
  private static final long serialVersionUID = 1L;

  public LedgerUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
