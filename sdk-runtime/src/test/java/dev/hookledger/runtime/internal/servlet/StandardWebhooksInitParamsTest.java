package dev.hookledger.runtime.internal.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.standardwebhooks.StandardWebhooksTestSigner;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code web.xml} names Standard Webhooks as {@code providers=standard} (found by ServiceLoader in
 * sdk-api), and its secret is the sender's {@code whsec_...} text, as the environment holds it.
 */
class StandardWebhooksInitParamsTest {
  // not Standard Webhooks' published example, which every front door refuses since 3c30cf8
  private static final String WHSEC = "whsec_JVMdlkvGiQHh6DAptwYb37ETMHo7utvVPzthPVbyTEY=";

  @Test
  void providersStandardVerifiesWithTheWhsecTextFromTheEnvironment() {
    String jdbcUrl = TestDatabase.create().jdbcUrl();
    InitParams.Configured configured = InitParams.read(Map.of("providers", "standard", "jdbc-url", jdbcUrl),
        Map.of("HOOKLEDGER_STANDARD_SECRET", WHSEC)::get, getClass().getClassLoader());
    try (WebhookRuntime runtime = configured.builder().mode(ProcessingMode.INLINE).build()) {
      runtime.migrate();
      runtime.start();
      Receipt receipt = runtime.receive("standard", StandardWebhooksTestSigner.withSecrets(WHSEC)
          .delivery("msg_webxml", "{\"type\":\"user.created\",\"data\":{}}", Instant.now()));

      assertEquals(Receipt.Outcome.PROCESSED, receipt.outcome());
      assertEquals("standard event msg_webxml user.created", receipt.event().toString());
      assertEquals(java.util.Optional.of("0"), receipt.event().secretId());
    }
  }
}
