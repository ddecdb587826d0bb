package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.InboundDelivery;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.internal.servlet.InitParams;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.standardwebhooks.StandardWebhooksAdapter;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A secret or token that cannot be real (an unresolved placeholder, a published example, one shorter
 * than the provider's) stops the start at every front door, in one line naming the setting and never
 * the value: a signing key anyone can read lets anyone forge a delivery.
 */
class ForgeableSecretsTest {

  @Test
  void builderRefusesAPublishedExampleNamingProviderAndSecretId() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WebhookRuntime.builder()
        .provider(new TestHookAdapter(), Secrets.of("It's a Secret to Everybody")));
    assertEquals("secret '0' of provider 'testhook' is a value published as an example, which anyone can sign with",
        e.getMessage());
  }

  @Test
  void builderRefusesASecretShorterThanTheProvidersNamingProviderAndSecretId() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WebhookRuntime.builder()
        .provider(new LongSecrets(), Secrets.builder().add("2026-11", "0123456789abcdef0123456789abcde").build()));
    assertEquals("secret '2026-11' of provider 'longsecrets' is shorter than 32 characters, so it is not a real secret",
        e.getMessage());
    assertFalse(e.getMessage().contains("0123456789"));
    WebhookRuntime.builder().provider(new LongSecrets(), Secrets.of("0123456789abcdef0123456789abcdef"));
  }

  @Test
  void webXmlRefusesAPlaceholderInTheSecretVariableNamingTheVariable() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InitParams.read(
        Map.of("providers", "testhook", "jdbc-url", "jdbc:postgresql://localhost/none"),
        Map.of("HOOKLEDGER_TESTHOOK_SECRET", "${TESTHOOK_SECRET}")::get, getClass().getClassLoader()));
    assertEquals("environment variable HOOKLEDGER_TESTHOOK_SECRET (the secret of provider 'testhook') is an unresolved"
        + " placeholder (${...}): the variable or property it names is not set", e.getMessage());
  }

  @Test
  void aStandardWebhooksKeyShorterThan16BytesStopsTheStartAtTheBuilderAndInWebXml() {
    IllegalArgumentException builder = assertThrows(IllegalArgumentException.class, () -> WebhookRuntime.builder()
        .provider(StandardWebhooksAdapter.named("clerk"), Secrets.of("whsec_AA==")));
    assertEquals("secret '0' of provider 'clerk' is too short for Standard Webhooks: its key (the base64 after whsec_)"
        + " decodes to 1 byte, but must be at least 16 (senders issue 24 to 64; copy the whole secret from the sender's"
        + " dashboard)", builder.getMessage());

    IllegalArgumentException webXml = assertThrows(IllegalArgumentException.class, () -> InitParams.read(
        Map.of("providers", "standard", "jdbc-url", "jdbc:postgresql://localhost/none"),
        Map.of("HOOKLEDGER_STANDARD_SECRET", "12345678")::get, getClass().getClassLoader()));
    assertEquals("environment variable HOOKLEDGER_STANDARD_SECRET: secret '0' of provider 'standard' is too short for"
        + " Standard Webhooks: its key (the whole text, base64) decodes to 6 bytes, but must be at least 16 (senders"
        + " issue 24 to 64; copy the whole secret from the sender's dashboard)", webXml.getMessage());
    assertFalse(webXml.getMessage().contains("12345678"));
  }

  @Test
  void adminTokenThatIsAnUnresolvedPlaceholderIsRefused() {
    // 25 characters: long enough for the old length check, and printed in every README
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AdminAuthorizer.bearerToken("${HOOKLEDGER_ADMIN_TOKEN}"));
    assertEquals("admin token is an unresolved placeholder (${...}): the variable or property it names is not set",
        e.getMessage());
  }

  /** An adapter whose provider issues 32-character secrets. */
  static final class LongSecrets implements ProviderAdapter {
    @Override
    public String id() {
      return "longsecrets";
    }

    @Override
    public int minimumSecretLength() {
      return 32;
    }

    @Override
    public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
      throw new UnsupportedOperationException("not delivered to");
    }
  }
}
