package dev.hookledger.shopify;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.hookledger.WebhookException;
import dev.hookledger.shopify.ShopifySubscriptionCheck.Result;
import dev.hookledger.shopify.ShopifySubscriptionCheck.Subscription;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ShopifySubscriptionCheckTest {
  private static final String TOKEN = "shpat_subscriptionCheckTokenThatMustNeverLeak";
  private static final String GRAPHQL = "/admin/api/2025-10/graphql.json";
  private static final String ENDPOINT = "https://example.com/webhooks/shopify";
  private static WireMockServer shopify;

  private final List<Duration> waits = new ArrayList<>();

  @BeforeAll
  static void startShopify() {
    shopify = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    shopify.start();
  }

  @AfterAll
  static void stopShopify() {
    shopify.stop();
  }

  @BeforeEach
  void reset() {
    shopify.resetAll();
  }

  private ShopifySubscriptionCheck.Builder check() {
    return ShopifySubscriptionCheck.builder()
        .shop("acme.myshopify.com")
        .accessToken(TOKEN)
        .apiBase(URI.create(shopify.baseUrl()))
        .sleeper(waits::add);
  }

  private static MappingBuilder query() {
    return post(urlEqualTo(GRAPHQL))
        .withHeader("X-Shopify-Access-Token", equalTo(TOKEN))
        .withHeader("Content-Type", equalTo("application/json"))
        .withRequestBody(matchingJsonPath("$.query", equalTo(ShopifySubscriptionCheck.QUERY)));
  }

  /** A {@code webhookSubscriptions} answer as the GraphQL Admin API gives it (https://shopify.dev/docs/api/admin-graphql/latest/queries/webhookSubscriptions). */
  private static String page(boolean hasNext, String endCursor, String... nodes) {
    StringBuilder edges = new StringBuilder();
    for (String node : nodes) {
      edges.append(edges.length() == 0 ? "" : ",").append("{\"cursor\":\"eyJsYXN0X2lkIjoxfQ==\",\"node\":").append(node).append('}');
    }
    return "{\"data\":{\"webhookSubscriptions\":{\"edges\":[" + edges + "],\"pageInfo\":{\"hasNextPage\":" + hasNext
        + ",\"endCursor\":\"" + endCursor + "\"}}},\"extensions\":{\"cost\":{\"requestedQueryCost\":12,\"actualQueryCost\":3}}}";
  }

  private static String node(int id, String topic, String uri) {
    return "{\"id\":\"gid://shopify/WebhookSubscription/" + id + "\",\"topic\":\"" + topic + "\",\"uri\":\"" + uri
        + "\",\"format\":\"JSON\",\"includeFields\":[],\"filter\":null,\"createdAt\":\"2024-09-10T15:14:00Z\"}";
  }

  @Test
  void listsSubscriptionsAcrossPagesAndReportsTopicsWithNone() {
    shopify.stubFor(query().atPriority(5).willReturn(okJson(page(true, "c1", node(1, "ORDERS_CREATE", ENDPOINT)))));
    shopify.stubFor(query().atPriority(1)
        .withRequestBody(matchingJsonPath("$.variables.after", equalTo("c1")))
        .willReturn(okJson(page(false, "c2", node(2, "APP_UNINSTALLED", ENDPOINT)))));

    Result result = check().build().check(List.of("orders/create", "orders/updated", "APP_UNINSTALLED"));

    assertEquals(
        List.of(new Subscription("gid://shopify/WebhookSubscription/1", "ORDERS_CREATE", ENDPOINT),
            new Subscription("gid://shopify/WebhookSubscription/2", "APP_UNINSTALLED", ENDPOINT)),
        result.subscriptions());
    assertEquals(List.of("ORDERS_UPDATED"), result.missingTopics());
    shopify.verify(2, postRequestedFor(urlEqualTo(GRAPHQL)));
  }

  @Test
  void subscriptionToAnotherEndpointDoesNotCountWhenTheEndpointIsGiven() {
    shopify.stubFor(query().willReturn(okJson(page(false, "c1",
        node(1, "ORDERS_CREATE", "https://old.example.com/hooks"), node(2, "APP_UNINSTALLED", ENDPOINT)))));

    Result anywhere = check().build().check(List.of("orders/create", "app/uninstalled"));
    Result ours = check().endpoint(ENDPOINT).build().check(List.of("orders/create", "app/uninstalled"));

    assertEquals(List.of(), anywhere.missingTopics());
    assertEquals(List.of("ORDERS_CREATE"), ours.missingTopics());
  }

  @Test
  void invalidTokenIsShopifysMessageWithoutTheToken() {
    shopify.stubFor(query().willReturn(aResponse().withStatus(401).withHeader("Content-Type", "application/json")
        .withBody("{\"errors\":\"[API] Invalid API key or access token (unrecognized login or wrong password)\"}")));

    WebhookException e = assertThrows(WebhookException.class, () -> check().build().check(List.of("orders/create")));

    assertEquals(
        "Shopify Admin API POST " + GRAPHQL
            + " answered 401: [API] Invalid API key or access token (unrecognized login or wrong password)",
        e.getMessage());
    assertFalse(e.getMessage().contains(TOKEN));
  }

  @Test
  void throttledQueryIsRetriedAfterABackoff() {
    shopify.stubFor(query().inScenario("cost").whenScenarioStateIs(STARTED)
        .willReturn(okJson("{\"errors\":[{\"message\":\"Throttled\",\"extensions\":{\"code\":\"THROTTLED\"}}]}"))
        .willSetStateTo("refilled"));
    shopify.stubFor(query().inScenario("cost").whenScenarioStateIs("refilled")
        .willReturn(okJson(page(false, "c1", node(1, "ORDERS_CREATE", ENDPOINT)))));

    Result result = check().build().check(List.of("orders/create"));

    assertEquals(List.of(), result.missingTopics());
    assertEquals(List.of(Duration.ofSeconds(1)), waits);
  }

  @Test
  void queryErrorIsReportedWithShopifysMessage() {
    shopify.stubFor(query().willReturn(okJson(
        "{\"errors\":[{\"message\":\"Field 'uri' doesn't exist on type 'WebhookSubscription'\",\"locations\":[]}]}")));

    WebhookException e = assertThrows(WebhookException.class, () -> check().build().check(List.of("orders/create")));

    assertEquals(
        "Shopify Admin API webhookSubscriptions query failed: Field 'uri' doesn't exist on type 'WebhookSubscription'",
        e.getMessage());
  }

  @Test
  void builderRefusesBadValuesNamingThem() {
    IllegalArgumentException shop = assertThrows(
        IllegalArgumentException.class, () -> ShopifySubscriptionCheck.builder().shop("acme.com"));
    IllegalArgumentException version = assertThrows(
        IllegalArgumentException.class, () -> ShopifySubscriptionCheck.builder().apiVersion("latest"));
    IllegalStateException missing = assertThrows(
        IllegalStateException.class, () -> ShopifySubscriptionCheck.builder().shop("acme.myshopify.com").build());

    assertEquals("shop must be a myshopify.com domain (acme.myshopify.com), but was 'acme.com'", shop.getMessage());
    assertEquals("apiVersion must be YYYY-MM or unstable, but was 'latest'", version.getMessage());
    assertEquals("shop and accessToken are required", missing.getMessage());
  }
}
