package dev.hookledger.runtime.internal.receive;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.runtime.WebhookListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cheap refusal before a body is read: a tenant without secrets (the runtime's rule), then the
 * provider's adapter looking at the headers alone ({@link dev.hookledger.spi.ProviderAdapter#checkHeaders})
 * with the secrets resolved for the delivery's tenant. Thread-safe.
 */
public final class HeaderCheck {
  private static final Logger log = LoggerFactory.getLogger(HeaderCheck.class);

  private final ProviderRegistry providers;
  private final WebhookListener listener;

  public HeaderCheck(ProviderRegistry providers, WebhookListener listener) {
    this.providers = providers;
    this.listener = listener;
  }

  /**
   * Refuses a delivery its adapter refuses from headers; a provider not registered passes (the
   * caller answers 404 for it).
   *
   * @param headersOnly the request with an empty body
   * @throws DeliveryRejectedException as the adapter refused it; the listener was told
   */
  public void check(String providerId, InboundDelivery headersOnly) {
    ProviderRegistry.Registration provider = providers.find(providerId).orElse(null);
    if (provider == null) {
      return;
    }
    try {
      provider.adapter().checkHeaders(headersOnly, provider.secretsFor(providerId, headersOnly));
    } catch (DeliveryRejectedException e) {
      log.debug("{} delivery rejected from its headers ({}): {}", providerId, e.reason(), e.getMessage());
      listener.rejected(providerId, e.reason());
      throw e;
    }
  }
}
