package dev.hookledger.github;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shape of GitHub App installation event, signed, is accepted. GitHub sends
 * {@code installation.created_at} and {@code updated_at} as integer Unix seconds (its schemas allow
 * ISO strings too), and does not retry: refusing one of these loses it. The shapes live in
 * {@code installation-events/} (index.txt names each file's {@code X-GitHub-Event}) and seed the
 * adapter's fuzz corpus.
 */
class GitHubInstallationEventsTest {
  private static final String SECRET = "gh_installation_test_secret";
  private static final long UNIX_1717243200 = 1_717_243_200L * 1_000_000;

  private final GitHubAdapter adapter = new GitHubAdapter();
  private final GitHubTestSigner signer = GitHubTestSigner.withSecret(SECRET).withoutSha1();

  static Stream<Arguments> shapes() {
    List<Arguments> out = new ArrayList<>();
    for (String line : resource("index.txt").split("\n")) {
      if (!line.isBlank()) {
        String[] parts = line.trim().split(" ");
        out.add(Arguments.of(parts[1], parts[0]));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void everyInstallationEventShapeSignedIsAccepted(String file, String event) throws IOException {
    String body = resource(file);

    WebhookEvent verified = adapter.verify(signer.delivery(event, body), Secrets.of(SECRET), Clock.systemUTC());

    String action = dev.hookledger.spi.json.JsonDocuments.parse(body.getBytes(StandardCharsets.UTF_8)).get("action").asText();
    assertEquals(event + "." + action, verified.type());
    assertEquals(Optional.of("0"), verified.secretId());
    if (event.equals("installation")) {
      assertEquals(Optional.of("installation:2311213"), verified.entityKey());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void everyInstallationEventShapePassesTheHeaderCheck(String file, String event) {
    adapter.checkHeaders(dev.hookledger.spi.testkit.AdapterContractTest.withBody(
        signer.delivery(event, resource(file)), new byte[0]), Secrets.of(SECRET));
  }

  @org.junit.jupiter.api.Test
  void integerUpdatedAtIsReadAsUnixSeconds() {
    assertEquals(OptionalLong.of(UNIX_1717243200), version("installation.deleted-unix.json"));
  }

  @org.junit.jupiter.api.Test
  void isoUpdatedAtWithAnOffsetIsReadAsTheSameKindOfVersion() {
    assertEquals(OptionalLong.of(micros("2024-06-01T19:00:00Z")), version("installation.suspend-iso.json"));
  }

  @org.junit.jupiter.api.Test
  void nullOrMissingUpdatedAtLeavesTheEventWithoutAVersion() {
    assertTrue(version("installation.deleted-null-updated.json").isEmpty());
    assertTrue(version("installation.created-no-updated.json").isEmpty());
  }

  private OptionalLong version(String file) {
    return adapter.verify(signer.delivery("installation", resource(file)), Secrets.of(SECRET), Clock.systemUTC())
        .entityVersion();
  }

  private static long micros(String iso) {
    Instant at = Instant.parse(iso);
    return at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000;
  }

  static String resource(String name) {
    try (InputStream in = GitHubInstallationEventsTest.class.getResourceAsStream("/installation-events/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no test resource installation-events/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
