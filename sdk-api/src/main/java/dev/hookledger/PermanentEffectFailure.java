package dev.hookledger;

/**
 * Thrown by an {@link EffectHandler} for an effect that can never succeed (the address is refused,
 * the request is invalid): the effect is {@code dead} at once, kept with this message for an
 * operator, and not retried. Any other exception is retried.
 */
public class PermanentEffectFailure extends WebhookException {
  private static final long serialVersionUID = 1L;

  public PermanentEffectFailure(String message) {
    super(message);
  }

  public PermanentEffectFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
