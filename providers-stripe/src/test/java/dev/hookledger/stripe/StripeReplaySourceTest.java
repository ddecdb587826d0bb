package dev.hookledger.stripe;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.hookledger.WebhookEvent;
import dev.hookledger.WebhookException;
import dev.hookledger.spi.ListedEvent;
import dev.hookledger.spi.ReplayReport;
import dev.hookledger.spi.testing.InMemoryReplaySink;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StripeReplaySourceTest {
  private static final String KEY = "sk_test_51ReplayKeyThatMustNeverLeak";
  private static final Instant SINCE = Instant.ofEpochSecond(1_700_000_000L);
  private static final Clock CLOCK = Clock.fixed(SINCE.plus(Duration.ofDays(2)), ZoneOffset.UTC);
  private static WireMockServer stripe;

  private final List<Duration> waits = new ArrayList<>();
  private final InMemoryReplaySink sink = new InMemoryReplaySink();

  @BeforeAll
  static void startStripe() {
    stripe = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    stripe.start();
  }

  @AfterAll
  static void stopStripe() {
    stripe.stop();
  }

  @BeforeEach
  void reset() {
    stripe.resetAll();
  }

  private StripeReplaySource.Builder source() {
    return StripeReplaySource.builder()
        .apiKey(KEY)
        .apiBase(URI.create(stripe.baseUrl()))
        .clock(CLOCK)
        .sleeper(waits::add);
  }

  /** An Event object as {@code GET /v1/events} lists it (https://docs.stripe.com/api/events/list), pretty-printed as Stripe does. */
  static String event(String id, long created, String type, String objectId) {
    return "{\n    \"id\": \"" + id + "\",\n    \"object\": \"event\",\n    \"api_version\": \"2024-06-20\",\n"
        + "    \"created\": " + created + ",\n    \"livemode\": false,\n    \"pending_webhooks\": 0,\n"
        + "    \"request\": { \"id\": null, \"idempotency_key\": null },\n    \"type\": \"" + type + "\",\n"
        + "    \"data\": { \"object\": { \"id\": \"" + objectId + "\", \"object\": \"invoice\", \"amount_due\": 1.50 } }\n  }";
  }

  static String page(boolean hasMore, String... events) {
    return "{\n  \"object\": \"list\",\n  \"url\": \"/v1/events\",\n  \"has_more\": " + hasMore + ",\n  \"data\": [\n  "
        + String.join(",\n  ", events) + "\n  ]\n}";
  }

  private static MappingBuilder firstPage() {
    return get(urlPathEqualTo("/v1/events"))
        .withHeader("Authorization", equalTo("Bearer " + KEY))
        .withQueryParam("created[gte]", equalTo("1700000000"))
        .withQueryParam("limit", equalTo("100"))
        .withQueryParam("starting_after", absent());
  }

  private static MappingBuilder pageAfter(String id) {
    return get(urlPathEqualTo("/v1/events"))
        .withHeader("Authorization", equalTo("Bearer " + KEY))
        .withQueryParam("created[gte]", equalTo("1700000000"))
        .withQueryParam("limit", equalTo("100"))
        .withQueryParam("starting_after", equalTo(id));
  }

  private static ResponseDefinitionBuilder stripeError(int status, String type, String message) {
    return aResponse()
        .withStatus(status)
        .withHeader("Content-Type", "application/json")
        .withBody("{\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message + "\"}}");
  }

  @Test
  void listsEveryEventOfTheWindowPageByPageWithItsDeliveryAsPendingWebhooksSaysAndWritesNothing() {
    String evt3 = event("evt_3", 1_700_000_600L, "invoice.paid", "in_1").replace("\"pending_webhooks\": 0",
        "\"pending_webhooks\": 2");
    String evt2 = event("evt_2", 1_700_000_300L, "invoice.finalized", "in_1");
    stripe.stubFor(firstPage().withQueryParam("created[lt]", equalTo("1700000900"))
        .willReturn(okJson(page(true, evt3))));
    stripe.stubFor(pageAfter("evt_3").withQueryParam("created[lt]", equalTo("1700000900"))
        .willReturn(okJson(page(false, evt2))));

    List<ListedEvent> listed = source().build().list(SINCE, SINCE.plusSeconds(900));

    assertEquals(List.of(
        new ListedEvent("", "evt_3", "invoice.paid", Instant.ofEpochSecond(1_700_000_600L), ListedEvent.Delivery.PENDING,
            "pending_webhooks=2"),
        new ListedEvent("", "evt_2", "invoice.finalized", Instant.ofEpochSecond(1_700_000_300L),
            ListedEvent.Delivery.DELIVERED, "pending_webhooks=0")), listed);
    assertTrue(sink.offered().isEmpty());
  }

  @Test
  void replaysEveryPageFollowingStartingAfterAndGivesEachEventTheAdaptersIdentity() {
    String evt3 = event("evt_3", 1_700_000_600L, "invoice.paid", "in_1");
    String evt2 = event("evt_2", 1_700_000_300L, "invoice.finalized", "in_1");
    String evt1 = event("evt_1", 1_700_000_000L, "invoice.created", "in_1");
    stripe.stubFor(firstPage().willReturn(okJson(page(true, evt3, evt2))));
    stripe.stubFor(pageAfter("evt_2").willReturn(okJson(page(false, evt1))));

    ReplayReport report = source().build().replay(SINCE, Optional.empty(), sink);

    assertEquals(new ReplayReport(3, 3, 0, 0, 2), report);
    assertEquals(List.of("evt_3", "evt_2", "evt_1"), sink.offeredIds());
    WebhookEvent paid = sink.offered().get(0);
    assertEquals("stripe", paid.provider());
    assertEquals("", paid.scope());
    assertEquals("invoice.paid", paid.type());
    assertEquals(Optional.of("2024-06-20"), paid.apiVersion());
    assertEquals(Optional.of("invoice:in_1"), paid.entityKey());
    assertEquals(OptionalLong.of(1_700_000_600_000_000L), paid.entityVersion());
    assertEquals(Optional.of(Instant.ofEpochSecond(1_700_000_600L)), paid.occurredAt());
    assertEquals(Optional.of(false), paid.livemode());
    assertEquals(Optional.empty(), paid.secretId());
    assertEquals(evt3, new String(paid.body(), UTF_8), "the event's bytes exactly as listed");
    assertEquals(evt1, sink.offered().get(2).payloadText());
  }

  @Test
  void eventTheLedgerAlreadyHasIsCountedAsAlreadyReceived() {
    stripe.stubFor(firstPage().willReturn(okJson(page(false,
        event("evt_2", 1_700_000_300L, "invoice.paid", "in_1"),
        event("evt_1", 1_700_000_000L, "invoice.created", "in_1")))));
    sink.alreadyHas("stripe", "", "evt_2");

    ReplayReport report = source().build().replay(SINCE, Optional.empty(), sink);

    assertEquals(new ReplayReport(2, 1, 1, 0, 1), report);
    assertEquals(List.of("evt_2", "evt_1"), sink.offeredIds());
  }

  @Test
  void typeFilterAccountAndDeliverySuccessAreSentToStripe() {
    stripe.stubFor(firstPage()
        .withQueryParam("type", equalTo("invoice.*"))
        .withQueryParam("delivery_success", equalTo("false"))
        .withHeader("Stripe-Account", equalTo("acct_1Connected"))
        .willReturn(okJson(page(false,
            "{\"id\":\"evt_9\",\"object\":\"event\",\"account\":\"acct_1Connected\",\"created\":1700000900,"
                + "\"type\":\"invoice.paid\",\"data\":{\"object\":{\"id\":\"in_9\",\"object\":\"invoice\"}}}"))));

    ReplayReport report =
        source().account("acct_1Connected").deliverySuccess(false).build().replay(SINCE, Optional.of("invoice.*"), sink);

    assertEquals(new ReplayReport(1, 1, 0, 0, 1), report);
    assertEquals("acct_1Connected", sink.offered().get(0).scope());
  }

  @Test
  void emptyFirstPageEndsTheReplay() {
    stripe.stubFor(firstPage().willReturn(okJson(page(false))));

    assertEquals(new ReplayReport(0, 0, 0, 0, 1), source().build().replay(SINCE, Optional.of("*"), sink));
    stripe.verify(1, getRequestedFor(urlPathEqualTo("/v1/events")).withQueryParam("type", absent()));
  }

  @Test
  void unauthorizedAnswerCarriesStripesMessageButNeverTheKey() {
    stripe.stubFor(get(urlPathEqualTo("/v1/events"))
        .willReturn(stripeError(401, "invalid_request_error", "Invalid API Key provided: sk_test_****************Leak")));

    WebhookException e =
        assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals(
        "Stripe API GET /v1/events answered 401: Invalid API Key provided: sk_test_****************Leak", e.getMessage());
    assertTrue(sink.offered().isEmpty());
  }

  @Test
  void keyEchoedInAnErrorIsRedacted() {
    stripe.stubFor(get(urlPathEqualTo("/v1/events"))
        .willReturn(stripeError(400, "invalid_request_error", "No such key: " + KEY)));

    WebhookException e =
        assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals("Stripe API GET /v1/events answered 400: No such key: [redacted]", e.getMessage());
    assertFalse(e.getMessage().contains(KEY));
  }

  @Test
  void badRequestNamesStripesMessage() {
    stripe.stubFor(get(urlPathEqualTo("/v1/events"))
        .willReturn(stripeError(400, "invalid_request_error", "Invalid type: must be one of the event types")));

    WebhookException e = assertThrows(
        WebhookException.class, () -> source().build().replay(SINCE, Optional.of("nonsense"), sink));

    assertEquals(
        "Stripe API GET /v1/events answered 400: Invalid type: must be one of the event types", e.getMessage());
  }

  @Test
  void rateLimitedRequestWaitsRetryAfterThenSucceeds() {
    stripe.stubFor(firstPage().inScenario("limited").whenScenarioStateIs(STARTED)
        .willReturn(stripeError(429, "rate_limit_error", "Too many requests").withHeader("Retry-After", "2"))
        .willSetStateTo("open"));
    stripe.stubFor(firstPage().inScenario("limited").whenScenarioStateIs("open")
        .willReturn(okJson(page(false, event("evt_1", 1_700_000_000L, "invoice.paid", "in_1")))));

    ReplayReport report = source().build().replay(SINCE, Optional.empty(), sink);

    assertEquals(new ReplayReport(1, 1, 0, 0, 1), report);
    assertEquals(List.of(Duration.ofSeconds(2)), waits);
    stripe.verify(2, getRequestedFor(urlPathEqualTo("/v1/events")));
  }

  @Test
  void stillRateLimitedAfterTheLastAttemptGivesUpClearly() {
    stripe.stubFor(firstPage()
        .willReturn(stripeError(429, "rate_limit_error", "Too many requests").withHeader("Retry-After", "1")));

    WebhookException e = assertThrows(
        WebhookException.class, () -> source().maxAttempts(3).build().replay(SINCE, Optional.empty(), sink));

    assertEquals(
        "Stripe API GET /v1/events is still rate limited (429) after 3 attempts: Too many requests; try again later",
        e.getMessage());
    assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1)), waits);
  }

  @Test
  void retryAfterLongerThanMaxWaitFailsWithoutWaiting() {
    stripe.stubFor(firstPage()
        .willReturn(stripeError(429, "rate_limit_error", "Too many requests").withHeader("Retry-After", "300")));

    WebhookException e = assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals(
        "Stripe API GET /v1/events is rate limited (429) for 300 s, longer than the 60 s a replay waits: "
            + "Too many requests; try again later",
        e.getMessage());
    assertTrue(waits.isEmpty());
  }

  @Test
  void serverErrorAndBrokenConnectionAreRetriedWithBackoff() {
    stripe.stubFor(firstPage().inScenario("flaky").whenScenarioStateIs(STARTED)
        .willReturn(stripeError(500, "api_error", "Something went wrong")).willSetStateTo("reset"));
    stripe.stubFor(firstPage().inScenario("flaky").whenScenarioStateIs("reset")
        .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)).willSetStateTo("open"));
    stripe.stubFor(firstPage().inScenario("flaky").whenScenarioStateIs("open")
        .willReturn(okJson(page(false, event("evt_1", 1_700_000_000L, "invoice.paid", "in_1")))));

    ReplayReport report = source().build().replay(SINCE, Optional.empty(), sink);

    assertEquals(new ReplayReport(1, 1, 0, 0, 1), report);
    assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), waits);
  }

  @Test
  void unreachableApiGivesUpAfterTheLastAttempt() {
    stripe.stubFor(firstPage().willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

    WebhookException e = assertThrows(
        WebhookException.class, () -> source().maxAttempts(2).build().replay(SINCE, Optional.empty(), sink));

    assertTrue(e.getMessage().startsWith("Stripe API GET /v1/events failed on each of 2 attempts: cannot reach "
        + stripe.baseUrl() + ": "), "names the host: " + e.getMessage());
    assertEquals(List.of(Duration.ofSeconds(1)), waits);
  }

  @Test
  void serverErrorOnEveryAttemptGivesUpWithStripesMessage() {
    stripe.stubFor(firstPage().willReturn(stripeError(503, "api_error", "Service unavailable")));

    WebhookException e = assertThrows(
        WebhookException.class, () -> source().maxAttempts(2).build().replay(SINCE, Optional.empty(), sink));

    assertEquals("Stripe API GET /v1/events answered 503 on each of 2 attempts: Service unavailable", e.getMessage());
  }

  @Test
  void sinceOlderThanThirtyDaysIsRefusedWithoutCallingStripe() {
    Instant tooOld = CLOCK.instant().minus(Duration.ofDays(30)).minusSeconds(1);

    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class, () -> source().build().replay(tooOld, Optional.empty(), sink));

    assertEquals(
        "since 2023-10-17T22:13:19Z is more than 30 days ago: Stripe keeps events for 30 days, so a replay can start at "
            + "2023-10-17T22:13:20Z at the earliest",
        e.getMessage());
    assertEquals(0, stripe.getAllServeEvents().size());
  }

  @Test
  void eventWithoutTypeIsReportedAndNothingOfItsPageIsOffered() {
    stripe.stubFor(firstPage().willReturn(okJson(page(false,
        event("evt_2", 1_700_000_300L, "invoice.paid", "in_1"), "{\"id\":\"evt_1\",\"object\":\"event\"}"))));

    WebhookException e = assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals(
        "Stripe API GET /v1/events answered with an event that cannot be recorded: the Stripe event has no 'type' "
            + "(a non-empty string or integer is required)",
        e.getMessage());
    assertTrue(sink.offered().isEmpty());
  }

  @Test
  void bodyThatIsNotAListIsReported() {
    stripe.stubFor(firstPage().willReturn(okJson("{\"object\":\"event\",\"id\":\"evt_1\"}")));

    WebhookException e = assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals(
        "Stripe API GET /v1/events answered with a body that is not a list of events: no 'data' array", e.getMessage());
  }

  @Test
  void builderRefusesBadValuesNamingThem() {
    IllegalArgumentException account =
        assertThrows(IllegalArgumentException.class, () -> StripeReplaySource.builder().account("ac_1"));
    IllegalStateException key = assertThrows(IllegalStateException.class, () -> StripeReplaySource.builder().build());

    assertEquals("account must be a Stripe account id (acct_...), but was 'ac_1'", account.getMessage());
    assertEquals("apiKey is required", key.getMessage());
  }
}
