package dev.hookledger.github;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class GitHubReplaySourceFactoryTest {
  private final GitHubReplaySourceFactory factory = new GitHubReplaySourceFactory();

  private static Map<String, String> with(String... pairs) {
    Map<String, String> settings = new HashMap<>();
    settings.put("token", GitHubReplaySourceTest.TOKEN);
    for (int i = 0; i < pairs.length; i += 2) {
      settings.put(pairs[i], pairs[i + 1]);
    }
    return settings;
  }

  private IllegalArgumentException refused(Map<String, String> settings) {
    return assertThrows(IllegalArgumentException.class, () -> factory.create(settings));
  }

  @Test
  void isFoundByServiceLoaderUnderTheGitHubId() {
    List<String> found = ServiceLoader.load(ReplaySourceFactory.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(f -> f.provider().equals("github"))
        .map(f -> f.getClass().getName())
        .toList();

    assertEquals(List.of(GitHubReplaySourceFactory.class.getName()), found);
  }

  @Test
  void listsItsSettingsInOrder() {
    assertEquals(
        List.of("token", "api-base", "repository", "organization", "hook-id", "app", "mode"),
        List.copyOf(factory.settings().keySet()));
  }

  @Test
  void missingTokenIsNamedWithHowToGiveIt() {
    assertEquals(
        "github replay needs the setting 'token' (--set token=... or HOOKLEDGER_GITHUB_TOKEN)",
        refused(Map.of("repository", "octo/hello", "hook-id", "42")).getMessage());
  }

  @Test
  void exactlyOneHookMustBeNamed() {
    assertEquals(
        "github replay needs exactly one hook: repository=owner/name with hook-id, organization=LOGIN with hook-id, "
            + "or app=true; none was given",
        refused(with()).getMessage());
    assertEquals(
        "github replay needs exactly one hook: repository=owner/name with hook-id, organization=LOGIN with hook-id, "
            + "or app=true; 2 were given",
        refused(with("repository", "octo/hello", "app", "true", "hook-id", "42")).getMessage());
  }

  @Test
  void badHookSettingsAreNamed() {
    assertEquals(
        "github replay needs the setting 'hook-id' (--set hook-id=... or HOOKLEDGER_GITHUB_HOOK_ID)",
        refused(with("organization", "octo")).getMessage());
    assertEquals(
        "github replay setting 'hook-id' must be a positive number, but was '42a'",
        refused(with("repository", "octo/hello", "hook-id", "42a")).getMessage());
    assertEquals(
        "repository must be owner/name, but was 'hello'",
        refused(with("repository", "hello", "hook-id", "42")).getMessage());
    assertEquals(
        "github replay setting 'mode' must be redeliver or ingest, but was 'replay'",
        refused(with("app", "true", "mode", "replay")).getMessage());
  }

  @Test
  void organizationHookOnAnEnterpriseServerIsReadAndRedeliveredUnderItsApiPath() {
    WireMockServer ghes = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    ghes.start();
    try {
      String hook = "/api/v3/orgs/octo/hooks/7/deliveries";
      ghes.stubFor(GitHubReplaySourceTest.list(hook, null).willReturn(GitHubReplaySourceTest.page(null,
          GitHubReplaySourceTest.attempt(11, "9a4d6d70-a8f1-11ee-8a6c-5d4b8f3e0f44",
              Instant.now().minusSeconds(60).toString(), false, 502, "push", null))));
      ghes.stubFor(GitHubReplaySourceTest.api(post(urlPathEqualTo(hook + "/11/attempts")))
          .willReturn(aResponse().withStatus(202)));
      ReplaySource source = factory.create(with(
          "api-base", ghes.baseUrl() + "/api/v3", "organization", "octo", "hook-id", "7", "mode", "REDELIVER"));

      ReplayReport report = source.replay(Instant.now().minus(Duration.ofHours(1)), Optional.empty(), new InMemoryReplaySink());

      assertEquals("github", source.provider());
      assertEquals(new ReplayReport(1, 0, 0, 1, 1), report);
      ghes.verify(1, postRequestedFor(urlEqualTo(hook + "/11/attempts")));
    } finally {
      ghes.stop();
    }
  }
}
