package dev.hookledger.stripe;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.hookledger.spi.ReplayReport;
import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import dev.hookledger.spi.testing.InMemoryReplaySink;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class StripeReplaySourceFactoryTest {
  private final StripeReplaySourceFactory factory = new StripeReplaySourceFactory();

  @Test
  void isFoundByServiceLoaderUnderTheStripeId() {
    List<String> found = ServiceLoader.load(ReplaySourceFactory.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(f -> f.provider().equals("stripe"))
        .map(f -> f.getClass().getName())
        .toList();

    assertEquals(List.of(StripeReplaySourceFactory.class.getName()), found);
  }

  @Test
  void listsItsSettingsInOrder() {
    assertEquals(List.of("api-key", "api-base", "account", "delivery-success"), List.copyOf(factory.settings().keySet()));
  }

  @Test
  void missingApiKeyIsNamedWithHowToGiveIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> factory.create(Map.of()));

    assertEquals(
        "stripe replay needs the setting 'api-key' (--set api-key=... or HOOKLEDGER_STRIPE_API_KEY)", e.getMessage());
  }

  @Test
  void badValuesAreNamed() {
    IllegalArgumentException success = assertThrows(IllegalArgumentException.class,
        () -> factory.create(Map.of("api-key", "sk_test_1", "delivery-success", "failed")));
    IllegalArgumentException base = assertThrows(IllegalArgumentException.class,
        () -> factory.create(Map.of("api-key", "sk_test_1", "api-base", "api.stripe.com")));

    assertEquals(
        "stripe replay setting 'delivery-success' must be true or false, but was 'failed'", success.getMessage());
    assertEquals(
        "stripe replay setting 'api-base' must be an absolute http or https URL without query, but was 'api.stripe.com'",
        base.getMessage());
  }

  @Test
  void createdSourceUsesEverySetting() {
    WireMockServer stripe = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    stripe.start();
    try {
      stripe.stubFor(get(urlPathEqualTo("/v1/events"))
          .withHeader("Authorization", equalTo("Bearer rk_test_restricted"))
          .withHeader("Stripe-Account", equalTo("acct_42"))
          .withQueryParam("delivery_success", equalTo("false"))
          .withQueryParam("created[gte]", matching("[0-9]+"))
          .willReturn(okJson(StripeReplaySourceTest.page(false,
              StripeReplaySourceTest.event("evt_1", Instant.now().getEpochSecond(), "invoice.paid", "in_1")))));
      ReplaySource source = factory.create(Map.of(
          "api-key", "rk_test_restricted", "api-base", stripe.baseUrl() + "/", "account", "acct_42",
          "delivery-success", "false", "unrelated", "ignored"));

      ReplayReport report = source.replay(Instant.now().minus(Duration.ofHours(1)), Optional.empty(), new InMemoryReplaySink());

      assertEquals("stripe", source.provider());
      assertEquals(new ReplayReport(1, 1, 0, 0, 1), report);
    } finally {
      stripe.stop();
    }
  }
}
