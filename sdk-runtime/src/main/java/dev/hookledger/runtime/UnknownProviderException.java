package dev.hookledger.runtime;

import dev.hookledger.WebhookException;

/**
 * A delivery for a provider id that no registered adapter has. The filter answers 404: a URL that
 * names no provider is not an endpoint. Nothing is stored.
 */
public class UnknownProviderException extends WebhookException {
  private static final long serialVersionUID = 1L;

  private final String provider;

  public UnknownProviderException(String provider, String message) {
    super(message);
    this.provider = provider;
  }

  /** The id that was asked for, as given; never null. */
  public String provider() {
    return provider;
  }
}
