package dev.hookledger;

/**
 * An {@link OnEvent} method that cannot be called: thrown when handlers are registered, never later.
 * The message names the class, the method and the parameter at fault, and what would be accepted.
 */
public class HandlerRegistrationException extends WebhookException {
  private static final long serialVersionUID = 1L;

  public HandlerRegistrationException(String message) {
    super(message);
  }

  public HandlerRegistrationException(String message, Throwable cause) {
    super(message, cause);
  }
}
