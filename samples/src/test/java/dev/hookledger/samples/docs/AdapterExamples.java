package dev.hookledger.samples.docs;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.standardwebhooks.StandardWebhooksAdapter;
import java.time.Duration;

/**
 * The Standard Webhooks example of docs/adapters.md, compiled: {@code DocSnippetsTest} checks that the
 * page's block is made of these lines, in this order.
 */
final class AdapterExamples {
  private AdapterExamples() {}

  static void standardWebhooks() {
    WebhookRuntime.builder()
        .provider(StandardWebhooksAdapter.named("clerk"),                 // POST /webhooks/clerk
            Secrets.fromEnvironment("CLERK_WEBHOOK_SECRET"))              // the whole whsec_... text
        .provider(StandardWebhooksAdapter.builder("acme")
            .singleType("acme.notification")        // payloads without a type: every event has this one
            .publicKey("2026-01", "whpk_...")       // also accept v1a (Ed25519) signatures
            .tolerance(Duration.ofMinutes(2))
            .build(), Secrets.none());
  }
}
