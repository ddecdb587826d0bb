package dev.hookledger.runtime.internal.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.cli.RuntimeOptions;
import dev.hookledger.runtime.internal.servlet.InitParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Every option of the catalogue is reachable from every text door (web.xml init-params, environment
 * variables, the command line) and lands in the settings the builder produces; the table of
 * docs/configuration.md is the catalogue's. (The Spring door has the same test in the starters; the samples' serve,
 * demo and bench, RuntimeOptionsDoorTest.)
 */
class SettingsCatalogueTest {
  private static final Map<String, String> BASE_PARAMS = Map.of("providers", "testhook",
      "jdbc-url", "jdbc:postgresql://localhost/settings");
  private static final Map<String, String> BASE_ENV = Map.of("HOOKLEDGER_TESTHOOK_SECRET", "testhook-secret");

  @Test
  void everyExampleIsAValueOtherThanTheBuildersDefault() {
    RuntimeSettings defaults = SettingsCatalogue.defaults();
    for (Setting<?> s : SettingsCatalogue.all()) {
      assertNotEquals(s.read(defaults), s.parse(s.example()), s.key() + ": its example is its default");
    }
  }

  @Test
  void everyOptionIsReachedFromAnInitParam() {
    for (Setting<?> s : SettingsCatalogue.all()) {
      Map<String, String> params = new HashMap<>(BASE_PARAMS);
      params.put(s.key(), s.example());
      assertCarried(s, fromWebXml(params, BASE_ENV), "init-param " + s.key());
    }
  }

  @Test
  void everyOptionIsReachedFromAnEnvironmentVariable() {
    for (Setting<?> s : SettingsCatalogue.all()) {
      Map<String, String> env = new HashMap<>(BASE_ENV);
      env.put(s.environmentVariable(), s.example());
      assertCarried(s, fromWebXml(BASE_PARAMS, env), "environment variable " + s.environmentVariable());
    }
  }

  @Test
  void everyOptionIsReachedFromTheCommandLine() {
    for (Setting<?> s : SettingsCatalogue.all()) {
      RuntimeCommand command = new RuntimeCommand();
      new CommandLine(command).parseArgs(s.option(), s.example());
      WebhookRuntimeBuilder b = WebhookRuntime.builder();
      RuntimeOptions.configure(command.spec, b, Map.of());
      assertCarried(s, RuntimeInternals.settings(b), s.option());
    }
  }

  @Test
  void anInitParamWinsOverTheEnvironmentAndABadValueIsNamedByItsDoor() {
    RuntimeSettings both = fromWebXml(plus(BASE_PARAMS, "workers", "3"), plus(BASE_ENV, "HOOKLEDGER_WORKERS", "5"));
    assertEquals(3, both.inbox().workers());
    IllegalArgumentException env = assertThrows(IllegalArgumentException.class,
        () -> fromWebXml(BASE_PARAMS, plus(BASE_ENV, "HOOKLEDGER_LEASE", "soon")));
    assertEquals("environment variable HOOKLEDGER_LEASE: must be a duration such as 500ms, 30s, 5m, 2h, 30d or PT30S,"
        + " but was 'soon'", env.getMessage());
    IllegalArgumentException retry = assertThrows(IllegalArgumentException.class,
        () -> fromWebXml(plus(BASE_PARAMS, "retry.max-delay", "1s"), BASE_ENV));
    assertEquals("init-param retry.*: maxDelay (PT1S) must not be shorter than firstDelay (PT10S)", retry.getMessage());
  }

  @Test
  void theRetryOptionsChangeOnlyWhatTheySet() {
    RuntimeSettings s = fromWebXml(plus(plus(BASE_PARAMS, "retry.first-delay", "100ms"), "retry.max-attempts", "3"),
        BASE_ENV);
    assertEquals(Duration.ofMillis(100), s.retryPolicy().firstDelay());
    assertEquals(3, s.retryPolicy().maxAttempts());
    assertEquals(Duration.ofHours(1), s.retryPolicy().maxDelay());
  }

  @Test
  void oneDurationGrammar() {
    assertEquals(Duration.ofMillis(500), SettingText.duration("500ms"));
    assertEquals(Duration.ofSeconds(30), SettingText.duration(" 30s "));
    assertEquals(Duration.ofMinutes(5), SettingText.duration("5m"));
    assertEquals(Duration.ofHours(2), SettingText.duration("2h"));
    assertEquals(Duration.ofDays(30), SettingText.duration("30d"));
    assertEquals(Duration.ofDays(14), SettingText.duration("2w"));
    assertEquals(Duration.ofSeconds(30), SettingText.duration("PT30S"));
    for (String d : List.of("500ms", "30s", "5m", "2h", "30d", "2w", "0s", "1500ms")) {
      assertEquals(d, SettingText.format(SettingText.duration(d)));
    }
    assertThrows(IllegalArgumentException.class, () -> SettingText.duration("30 seconds"));
    assertEquals(128L << 20, SettingText.bytes("128MB"));
  }

  @Test
  void theConfigurationReferenceTableIsTheCatalogue() throws IOException {
    Path reference = Path.of("..", "docs", "configuration.md");   // tests run in sdk-runtime/
    String text = Files.readString(reference);
    String begin = "<!-- settings:begin -->\n";
    String end = "<!-- settings:end -->";
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    assertTrue(from >= 0 && to > from, "docs/configuration.md has no " + begin.trim() + " ... " + end + " section");
    String expected = SettingsTable.markdown();
    if (!text.substring(from + begin.length(), to).equals(expected)) {
      fail("the settings table of docs/configuration.md is not the catalogue's; put this between the markers:\n"
          + expected);
    }
  }

  private static void assertCarried(Setting<?> s, RuntimeSettings settings, String door) {
    assertEquals(s.parse(s.example()), s.read(settings), door + " did not reach " + s.builderCall());
  }

  private static RuntimeSettings fromWebXml(Map<String, String> params, Map<String, String> env) {
    Function<String, String> lookup = env::get;
    return RuntimeInternals.settings(InitParams.read(params, lookup, SettingsCatalogueTest.class.getClassLoader())
        .builder());
  }

  private static Map<String, String> plus(Map<String, String> map, String key, String value) {
    Map<String, String> out = new HashMap<>(map);
    out.put(key, value);
    return out;
  }

  /** A command that builds a runtime, as {@code serve} does. */
  @Command(name = "runtime", modelTransformer = RuntimeOptions.class)
  static final class RuntimeCommand {
    @Spec CommandSpec spec;
  }
}
