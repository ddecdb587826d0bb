package dev.hookledger.runtime.admin;

import dev.hookledger.WebhookException;

/**
 * An admin operation was refused because doing it would break a guarantee (pruning ids a provider
 * may still deliver, retrying an event that is not dead) or because its event does not exist.
 * Nothing was changed. The message says why and what to do instead; the command line exits 3.
 */
public class OperationRefusedException extends WebhookException {
  private static final long serialVersionUID = 1L;

  public OperationRefusedException(String message) {
    super(message);
  }
}
