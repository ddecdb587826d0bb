package dev.hookledger;

/**
 * Root of every exception hookledger throws. Unchecked, so that handler code and servlet glue are
 * not forced to catch what they cannot handle.
 *
 * <p>Messages are stable (tests assert them) and never contain a secret or a request body.
 */
public class WebhookException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public WebhookException(String message) {
    super(message);
  }

  public WebhookException(String message, Throwable cause) {
    super(message, cause);
  }
}
