package dev.hookledger.runtime.internal.dispatch;

import dev.hookledger.WebhookException;

/**
 * The payload does not hold what a handler parameter asks for. Fails the attempt like a handler
 * exception (rolled back, retried, then {@code dead}); its message names what is missing and where,
 * and never quotes the payload, so it carries no cause from the JSON libraries (their messages can).
 */
public final class BindingFailure extends WebhookException {
  private static final long serialVersionUID = 1L;

  public BindingFailure(String message) {
    super(message);
  }
}
