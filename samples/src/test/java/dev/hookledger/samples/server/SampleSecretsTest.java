package dev.hookledger.samples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SampleSecretsTest {

  @Test
  void configuredSecretsAreTakenFromTheEnvironment() {
    SampleSecrets s = SampleSecrets.fromEnvironment(Map.of(
        "STRIPE_WEBHOOK_SECRET", "whsec_configured",
        "GITHUB_WEBHOOK_SECRET", " gh-secret \n",
        "SHOPIFY_WEBHOOK_SECRET", "shpss_configured",
        "HOOKLEDGER_ADMIN_TOKEN", "admin-token-configured"));
    assertEquals("whsec_configured", s.stripe());
    assertEquals("gh-secret", s.github());
    assertEquals("shpss_configured", s.shopify());
    assertEquals("admin-token-configured", s.adminToken());
    assertEquals(List.of(), s.generated());
  }

  @Test
  void unsetOrBlankSecretsAreGeneratedAndListed() {
    SampleSecrets s = SampleSecrets.fromEnvironment(Map.of("GITHUB_WEBHOOK_SECRET", "gh", "SHOPIFY_WEBHOOK_SECRET", " "));
    assertEquals(List.of("STRIPE_WEBHOOK_SECRET", "SHOPIFY_WEBHOOK_SECRET", "HOOKLEDGER_ADMIN_TOKEN"), s.generated());
    assertTrue(s.adminToken().matches("dev_[0-9a-f]{48}"), "long enough for AdminAuthorizer.bearerToken");
    assertTrue(s.stripe().matches("whsec_dev_[0-9a-f]{48}"), s.stripe());
    assertTrue(s.shopify().matches("shpss_dev_[0-9a-f]{48}"), s.shopify());
    assertEquals("gh", s.github());
    assertNotEquals(s.stripe(), SampleSecrets.generate().stripe());
  }

  @Test
  void toStringNeverShowsAValue() {
    SampleSecrets s = SampleSecrets.generate();
    assertEquals("SampleSecrets[generated=[STRIPE_WEBHOOK_SECRET, GITHUB_WEBHOOK_SECRET, SHOPIFY_WEBHOOK_SECRET,"
        + " HOOKLEDGER_ADMIN_TOKEN]]", s.toString());
    assertFalse(s.toString().contains(s.stripe()));
    assertFalse(s.toString().contains(s.adminToken()));
  }

  @Test
  void databaseUrlsAreShownWithoutTheirPassword() {
    assertEquals("jdbc:postgresql://db:5432/app?user=app&password=***&ssl=true",
        SampleDatabase.redact("jdbc:postgresql://db:5432/app?user=app&password=s3cr%26t&ssl=true"));
  }
}
