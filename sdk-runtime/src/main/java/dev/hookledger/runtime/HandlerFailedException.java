package dev.hookledger.runtime;

import dev.hookledger.WebhookException;

/**
 * An {@link dev.hookledger.OnEvent} method threw: its transaction, with the ledger row's settlement,
 * was rolled back. The message names the method and the event; {@link #getCause()} is what the
 * method threw, unchanged.
 *
 * <p>In {@link ProcessingMode#STORE_FIRST} the event stays {@code pending} with the failure
 * recorded; in {@link ProcessingMode#INLINE} nothing was recorded, {@link WebhookRuntime#receive}
 * throws this, and the filter answers 500 so that the provider redelivers.
 */
public class HandlerFailedException extends WebhookException {
  private static final long serialVersionUID = 1L;

  public HandlerFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
