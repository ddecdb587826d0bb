package dev.hookledger;

import static java.util.Objects.requireNonNull;

/**
 * A delivery that was refused before anything was stored: a missing or wrong signature, a stale
 * timestamp, a malformed body. {@link #reason()} says which; the message says what to check.
 *
 * <p>The message never echoes a secret, a signature value or the body.
 */
public class DeliveryRejectedException extends WebhookException {
  private static final long serialVersionUID = 1L;

  private final RejectionReason reason;

  public DeliveryRejectedException(RejectionReason reason, String message) {
    super(message);
    this.reason = requireNonNull(reason, "reason");
  }

  public DeliveryRejectedException(RejectionReason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = requireNonNull(reason, "reason");
  }

  /** Why the delivery was refused; never null. */
  public RejectionReason reason() {
    return reason;
  }

  /** The HTTP status that answers this rejection. */
  public int httpStatus() {
    return reason.httpStatus();
  }
}
