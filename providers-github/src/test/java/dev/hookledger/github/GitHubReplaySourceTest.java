package dev.hookledger.github;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
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

class GitHubReplaySourceTest {
  static final String TOKEN = "ghp_replayTokenThatMustNeverLeak";
  static final String HOOK = "/repos/octo/hello/hooks/42/deliveries";
  private static final Instant SINCE = Instant.parse("2024-01-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2024-01-03T00:00:00Z");
  private static final String GUID_A = "0b989ba4-242f-11e5-81e1-c7b6966d2516";
  private static final String GUID_B = "58474f00-b361-11eb-836d-0e4f3503ccbe";
  private static final String GUID_C = "6d1a3a40-a8f1-11ee-9e3f-2a1f5c0b7c11";
  private static final String GUID_D = "7e2b4b50-a8f1-11ee-8c4a-3b2f6d1c8d22";
  private static final String GUID_OLD = "8f3c5c60-a8f1-11ee-9b5b-4c3a7e2d9e33";
  private static WireMockServer github;

  private final List<Duration> waits = new ArrayList<>();
  private final InMemoryReplaySink sink = new InMemoryReplaySink();

  @BeforeAll
  static void startGitHub() {
    github = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    github.start();
  }

  @AfterAll
  static void stopGitHub() {
    github.stop();
  }

  @BeforeEach
  void reset() {
    github.resetAll();
  }

  private GitHubReplaySource.Builder source() {
    return GitHubReplaySource.builder()
        .token(TOKEN)
        .apiBase(URI.create(github.baseUrl()))
        .repositoryHook("octo/hello", 42)
        .clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .sleeper(waits::add);
  }

  /** A "simple webhook delivery" list item (https://docs.github.com/en/rest/repos/webhooks#list-deliveries-for-a-repository-webhook). */
  static String attempt(long id, String guid, String at, boolean redelivery, int code, String event, String action) {
    return "{\"id\": " + id + ", \"guid\": \"" + guid + "\", \"delivered_at\": \"" + at + "\", \"redelivery\": "
        + redelivery + ", \"duration\": 0.27, \"status\": \"" + (code == 200 ? "OK" : "Invalid HTTP Response: " + code)
        + "\", \"status_code\": " + code + ", \"event\": \"" + event + "\", \"action\": "
        + (action == null ? "null" : "\"" + action + "\"")
        + ", \"installation_id\": null, \"repository_id\": 1296269, \"throttled_at\": null}";
  }

  static MappingBuilder api(MappingBuilder request) {
    return request
        .withHeader("Authorization", equalTo("Bearer " + TOKEN))
        .withHeader("Accept", equalTo("application/vnd.github+json"))
        .withHeader("X-GitHub-Api-Version", equalTo("2022-11-28"));
  }

  static MappingBuilder list(String path, String cursor) {
    return api(get(urlPathEqualTo(path))
        .withQueryParam("per_page", equalTo("100"))
        .withQueryParam("cursor", cursor == null ? absent() : equalTo(cursor)));
  }

  static ResponseDefinitionBuilder page(String next, String... items) {
    ResponseDefinitionBuilder page = okJson("[\n" + String.join(",\n", items) + "\n]");
    return next == null ? page : page.withHeader("Link", "<" + next + ">; rel=\"next\", <" + next + "9>; rel=\"last\"");
  }

  private static ResponseDefinitionBuilder githubError(int status, String message) {
    return aResponse().withStatus(status).withHeader("Content-Type", "application/json")
        .withBody("{\"message\":\"" + message + "\",\"documentation_url\":\"https://docs.github.com/rest\",\"status\":\"" + status + "\"}");
  }

  /**
   * Two pages, newest first: A delivered; D failed then redelivered successfully; B failed twice;
   * C failed; then a delivery older than {@code since}, after which the list must not be read.
   */
  private void stubTwoPages() {
    github.stubFor(list(HOOK, null).willReturn(page(github.baseUrl() + HOOK + "?per_page=100&cursor=abc",
        attempt(105, GUID_A, "2024-01-02T12:00:00Z", false, 200, "issues", "opened"),
        attempt(104, GUID_D, "2024-01-02T11:00:00Z", true, 200, "push", null),
        attempt(103, GUID_B, "2024-01-02T10:00:00Z", false, 502, "issues", "opened"))));
    github.stubFor(list(HOOK, "abc").willReturn(page(github.baseUrl() + HOOK + "?per_page=100&cursor=def",
        attempt(102, GUID_C, "2024-01-01T09:00:00Z", false, 500, "push", null),
        attempt(101, GUID_D, "2024-01-01T08:00:00Z", false, 502, "push", null),
        attempt(100, GUID_B, "2024-01-01T07:00:00Z", false, 503, "issues", "opened"),
        attempt(99, GUID_OLD, "2023-12-31T23:00:00Z", false, 502, "push", null))));
    github.stubFor(api(post(urlPathEqualTo(HOOK + "/102/attempts"))).willReturn(aResponse().withStatus(202).withBody("{}")));
    github.stubFor(api(post(urlPathEqualTo(HOOK + "/103/attempts"))).willReturn(aResponse().withStatus(202).withBody("{}")));
  }

  @Test
  void listsEachEventOfTheWindowOnceDeliveredIfAnyAttemptWasAndNeverAsksForARedelivery() {
    stubTwoPages();

    List<ListedEvent> listed = source().build().list(SINCE, Instant.parse("2024-01-02T11:30:00Z"));

    // A (12:00) is after the window; D counts as delivered by its redelivery; B and C only failed
    assertEquals(List.of(
        new ListedEvent("42", GUID_D, "push", Instant.parse("2024-01-02T11:00:00Z"), ListedEvent.Delivery.DELIVERED,
            "HTTP 200"),
        new ListedEvent("42", GUID_B, "issues.opened", Instant.parse("2024-01-02T10:00:00Z"),
            ListedEvent.Delivery.FAILED, "HTTP 502"),
        new ListedEvent("42", GUID_C, "push", Instant.parse("2024-01-01T09:00:00Z"), ListedEvent.Delivery.FAILED,
            "HTTP 500")), listed);
    assertEquals(0, posts(), "listing redelivers nothing");
  }

  private static int posts() {
    return github.findAll(postRequestedFor(anyUrl())).size();
  }

  @Test
  void missedEventsAcrossLinkPagesAreRedeliveredOldestFirstAtTheirAttemptsPath() {
    stubTwoPages();

    ReplayReport report = source().build().replay(SINCE, Optional.empty(), sink);

    assertEquals(new ReplayReport(4, 0, 0, 2, 2), report);
    assertEquals(
        List.of("POST " + HOOK + "/102/attempts", "POST " + HOOK + "/103/attempts"),
        github.findAll(postRequestedFor(anyUrl())).stream().map(r -> r.getMethod() + " " + r.getUrl()).toList());
    assertEquals(List.of(List.of("github", "42", GUID_C), List.of("github", "42", GUID_B)), sink.asked());
    assertTrue(sink.offered().isEmpty(), "redelivered events come back through the endpoint, not the sink");
  }

  @Test
  void eventWithALaterSuccessfulRedeliveryIsNotRedelivered() {
    stubTwoPages();

    source().build().replay(SINCE, Optional.empty(), sink);

    github.verify(0, postRequestedFor(urlEqualTo(HOOK + "/104/attempts")));
    github.verify(0, postRequestedFor(urlEqualTo(HOOK + "/101/attempts")));
    github.verify(0, postRequestedFor(urlEqualTo(HOOK + "/105/attempts")));
  }

  @Test
  void deliveriesOlderThanSinceStopThePaging() {
    stubTwoPages();

    source().build().replay(SINCE, Optional.empty(), sink);

    github.verify(0, getRequestedFor(urlPathEqualTo(HOOK)).withQueryParam("cursor", equalTo("def")));
    github.verify(0, postRequestedFor(urlEqualTo(HOOK + "/99/attempts")));
  }

  @Test
  void eventTheLedgerAlreadyHasIsSkipped() {
    stubTwoPages();
    sink.alreadyHas("github", "42", GUID_C);

    ReplayReport report = source().build().replay(SINCE, Optional.empty(), sink);

    assertEquals(new ReplayReport(4, 0, 1, 1, 2), report);
    github.verify(0, postRequestedFor(urlEqualTo(HOOK + "/102/attempts")));
    github.verify(1, postRequestedFor(urlEqualTo(HOOK + "/103/attempts")));
  }

  @Test
  void typeFilterMatchesTheBareEventOrTheTypeWithWildcards() {
    stubTwoPages();

    ReplayReport issues = source().build().replay(SINCE, Optional.of("issues"), sink);
    ReplayReport pushes = source().build().replay(SINCE, Optional.of("p*h"), new InMemoryReplaySink());
    ReplayReport opened = source().build().replay(SINCE, Optional.of("*.opened"), new InMemoryReplaySink());

    assertEquals(new ReplayReport(2, 0, 0, 1, 2), issues);
    assertEquals(new ReplayReport(2, 0, 0, 1, 2), pushes);
    assertEquals(new ReplayReport(2, 0, 0, 1, 2), opened);
    assertEquals(List.of(List.of("github", "42", GUID_B)), sink.asked());
  }

  @Test
  void unknownHookIsAClearError() {
    github.stubFor(list(HOOK, null).willReturn(githubError(404, "Not Found")));

    WebhookException e = assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals("GitHub API GET " + HOOK + " answered 404: Not Found", e.getMessage());
    assertEquals(0, posts());
  }

  @Test
  void refusedRedeliveryStopsTheReplaySayingHowFarItGot() {
    stubTwoPages();
    github.stubFor(api(post(urlPathEqualTo(HOOK + "/103/attempts"))).willReturn(githubError(422, "Validation Failed")));

    WebhookException e = assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals(
        "GitHub replay stopped at delivery 103 (1 of 2 missed events handled): GitHub API POST " + HOOK
            + "/103/attempts answered 422: Validation Failed",
        e.getMessage());
  }

  @Test
  void exhaustedRateLimitWaitsUntilTheResetThenGoesOn() {
    github.stubFor(list(HOOK, null).inScenario("quota").whenScenarioStateIs(STARTED)
        .willReturn(githubError(403, "API rate limit exceeded for user ID 1.")
            .withHeader("x-ratelimit-remaining", "0")
            .withHeader("x-ratelimit-reset", Long.toString(NOW.plusSeconds(30).getEpochSecond())))
        .willSetStateTo("reset"));
    github.stubFor(list(HOOK, null).inScenario("quota").whenScenarioStateIs("reset")
        .willReturn(page(null, attempt(7, GUID_A, "2024-01-02T00:00:00Z", false, 200, "ping", null))));

    ReplayReport report = source().build().replay(SINCE, Optional.empty(), sink);

    assertEquals(new ReplayReport(1, 0, 0, 0, 1), report);
    assertEquals(List.of(Duration.ofSeconds(30)), waits);
  }

  @Test
  void rateLimitLongerThanMaxWaitIsAClearErrorWithoutWaiting() {
    github.stubFor(list(HOOK, null).willReturn(
        githubError(429, "You have exceeded a secondary rate limit.").withHeader("retry-after", "120")));

    WebhookException e = assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals(
        "GitHub API GET " + HOOK + " is rate limited (429) for 120 s, longer than the 60 s a replay waits: "
            + "You have exceeded a secondary rate limit.; try again later",
        e.getMessage());
    assertTrue(waits.isEmpty());
  }

  @Test
  void forbiddenWithoutRateLimitHeadersIsNotRetried() {
    github.stubFor(list(HOOK, null).willReturn(githubError(403, "Resource not accessible by personal access token")));

    WebhookException e = assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals(
        "GitHub API GET " + HOOK + " answered 403: Resource not accessible by personal access token", e.getMessage());
    assertTrue(waits.isEmpty());
    github.verify(1, getRequestedFor(urlPathEqualTo(HOOK)));
  }

  @Test
  void ingestModeOffersTheFetchedPayloadWithTheAdaptersIdentity() {
    String payload = "{\n    \"action\": \"opened\",\n    \"issue\": {\"id\": 1347, \"number\": 1, "
        + "\"updated_at\": \"2024-01-02T09:59:58Z\"},\n    \"repository\": {\"id\": 1296269}\n  }";
    github.stubFor(list(HOOK, null).willReturn(page(null,
        attempt(103, GUID_B, "2024-01-02T10:00:00Z", false, 502, "issues", "opened"))));
    github.stubFor(api(get(urlPathEqualTo(HOOK + "/103"))).willReturn(okJson("{\"id\": 103, \"guid\": \"" + GUID_B
        + "\", \"status_code\": 502, \"event\": \"issues\", \"action\": \"opened\", \"url\": \"https://example.com/hook\","
        + " \"request\": {\"headers\": {\"X-GitHub-Event\": \"issues\", \"X-GitHub-Delivery\": \"" + GUID_B
        + "\", \"X-GitHub-Hook-ID\": \"42\"},\n  \"payload\": " + payload + "},"
        + " \"response\": {\"headers\": {}, \"payload\": \"bad gateway\"}}")));

    ReplayReport report = source().mode(GitHubReplayMode.INGEST).build().replay(SINCE, Optional.empty(), sink);

    assertEquals(new ReplayReport(1, 1, 0, 0, 1), report);
    assertEquals(0, posts());
    WebhookEvent event = sink.offered().get(0);
    assertEquals("github", event.provider());
    assertEquals("42", event.scope());
    assertEquals(GUID_B, event.eventId());
    assertEquals(Optional.of(GUID_B), event.deliveryId());
    assertEquals("issues.opened", event.type());
    assertEquals(Optional.of("issue:1347"), event.entityKey());
    assertEquals(OptionalLong.of(Instant.parse("2024-01-02T09:59:58Z").getEpochSecond() * 1_000_000L), event.entityVersion());
    assertEquals(Optional.empty(), event.secretId());
    assertEquals(payload, new String(event.body(), UTF_8));
  }

  @Test
  void appHookReadsItsHookIdFromADeliveryAndRedeliversThroughTheAppPath() {
    github.stubFor(list("/app/hook/deliveries", null).willReturn(page(null,
        attempt(7, GUID_C, "2024-01-02T10:00:00Z", false, 502, "installation", "created"))));
    github.stubFor(api(get(urlPathEqualTo("/app/hook/deliveries/7"))).willReturn(okJson(
        "{\"id\":7,\"guid\":\"" + GUID_C + "\",\"request\":{\"headers\":{\"x-github-hook-id\":\"987\"},"
            + "\"payload\":{\"action\":\"created\"}}}")));
    github.stubFor(api(post(urlPathEqualTo("/app/hook/deliveries/7/attempts"))).willReturn(aResponse().withStatus(202)));

    ReplayReport report = source().appHook().build().replay(SINCE, Optional.empty(), sink);

    assertEquals(new ReplayReport(1, 0, 0, 1, 1), report);
    assertEquals(List.of(List.of("github", "987", GUID_C)), sink.asked());
    github.verify(1, postRequestedFor(urlEqualTo("/app/hook/deliveries/7/attempts")));
  }

  @Test
  void nextLinkOutsideTheApiIsNotFollowedWithTheToken() {
    github.stubFor(list(HOOK, null).willReturn(page("https://elsewhere.example.com/collect?cursor=x",
        attempt(7, GUID_A, "2024-01-02T00:00:00Z", false, 200, "ping", null))));

    WebhookException e = assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals(
        "GitHub API refuses to send its credential to https://elsewhere.example.com/collect, which is outside "
            + github.baseUrl(),
        e.getMessage());
  }

  @Test
  void listThatIsNotAnArrayIsAClearError() {
    github.stubFor(list(HOOK, null).willReturn(okJson("{\"message\":\"ok\"}")));

    WebhookException e = assertThrows(WebhookException.class, () -> source().build().replay(SINCE, Optional.empty(), sink));

    assertEquals("GitHub API GET " + HOOK + " answered with a body that is not a list of deliveries", e.getMessage());
  }

  @Test
  void builderRefusesBadValuesNamingThem() {
    IllegalArgumentException repository = assertThrows(
        IllegalArgumentException.class, () -> GitHubReplaySource.builder().repositoryHook("octo/hello/extra", 1));
    IllegalArgumentException hookId = assertThrows(
        IllegalArgumentException.class, () -> GitHubReplaySource.builder().organizationHook("octo", 0));
    IllegalStateException noHook = assertThrows(
        IllegalStateException.class, () -> GitHubReplaySource.builder().token(TOKEN).build());

    assertEquals("repository must be owner/name, but was 'octo/hello/extra'", repository.getMessage());
    assertEquals("hookId must be positive, but was 0", hookId.getMessage());
    assertEquals("a hook is required: repositoryHook, organizationHook or appHook", noHook.getMessage());
  }
}
