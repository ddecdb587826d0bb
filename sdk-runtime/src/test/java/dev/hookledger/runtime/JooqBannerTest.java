package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * jOOQ's logo and "tip of the day" stay out of an application's log, unless the application asks for
 * them. Each case runs in a fresh JVM with jOOQ's logger at INFO, because jOOQ decides once, when its
 * first query is rendered.
 */
class JooqBannerTest {

  @Test
  void aRuntimeThatRunsQueriesPrintsNeitherTheLogoNorATip() throws Exception {
    String stderr = run(TestDatabase.create().jdbcUrl());
    assertTrue(stderr.contains("migrated"), stderr);
    assertFalse(stderr.contains("Thank you for using jOOQ"), stderr);
    assertFalse(stderr.contains("tip of the day"), stderr);
  }

  @Test
  void anApplicationThatAsksForThemStillGetsThem() throws Exception {
    String stderr = run(TestDatabase.create().jdbcUrl(), "-Dorg.jooq.no-logo=false", "-Dorg.jooq.no-tips=false");
    assertTrue(stderr.contains("Thank you for using jOOQ"), "the check above can fail: " + stderr);
  }

  private static String run(String jdbcUrl, String... properties) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx128m", "-Dorg.slf4j.simpleLogger.log.org.jooq=info"));
    command.addAll(List.of(properties));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Migrate.class.getName(), jdbcUrl));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child JVM did not end");
    assertEquals(0, process.exitValue(), output);
    return output;
  }

  /** Builds a runtime on the given database and migrates it: jOOQ renders its first queries. */
  public static final class Migrate {
    public static void main(String[] args) {
      try (WebhookRuntime runtime = WebhookRuntime.builder().jdbcUrl(args[0]).schema("banner")
          .provider(new TestHookAdapter(), Secrets.of("s")).build()) {
        runtime.migrate();
      }
      System.out.println("migrated");
    }
  }
}
