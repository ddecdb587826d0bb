/**
 * hookledger's vocabulary and adapter SPI: {@code @OnEvent}, {@code WebhookEvent},
 * {@code InboundDelivery}, {@code Secrets}, the {@code ProviderAdapter} and {@code ReplaySource} SPIs
 * with their helpers, and the Standard Webhooks adapter. {@code dev.hookledger.internal} is read only
 * by hookledger's own modules.
 */
module dev.hookledger.sdk.api {
  requires transitive com.fasterxml.jackson.databind;
  requires transitive java.net.http;
  // found by the mapper's findAndAddModules(): java.time values and constructor parameter names
  requires com.fasterxml.jackson.datatype.jsr310;
  requires com.fasterxml.jackson.module.paramnames;
  requires org.bouncycastle.provider;
  requires org.slf4j;

  exports dev.hookledger;
  exports dev.hookledger.spi;
  exports dev.hookledger.spi.json;
  exports dev.hookledger.spi.replay;
  exports dev.hookledger.standardwebhooks;
  exports dev.hookledger.internal to
      dev.hookledger.adapter.testkit,
      dev.hookledger.runtime,
      dev.hookledger.runtime.spring;

  provides dev.hookledger.spi.ProviderAdapter with dev.hookledger.standardwebhooks.StandardWebhooksAdapter;
}
