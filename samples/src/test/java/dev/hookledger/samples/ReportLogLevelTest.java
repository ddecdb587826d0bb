package dev.hookledger.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.samples.testing.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The report commands' output carries no INFO lines of the runtime (migrations, pool, start): their
 * log level is set before the jar's command line is built, which already makes a logger. Each case
 * runs in a fresh JVM, since slf4j-simple reads its level once per JVM.
 */
class ReportLogLevelTest {
  @TempDir Path logs;

  @Test
  void benchAndTheDemoKeepTheRuntimesInfoLinesOutOfTheirReport() throws InterruptedException {
    assertEquals("false", runtimeInfoEnabledAfterBuilding("bench", "-n", "10"));
    assertEquals("false", runtimeInfoEnabledAfterBuilding());
    assertEquals("true", runtimeInfoEnabledAfterBuilding("serve", "--workers", "3"), "serve logs at INFO");
  }

  private String runtimeInfoEnabledAfterBuilding(String... args) throws InterruptedException {
    try (ChildJvm jvm = ChildJvm.start(Probe.class, List.of(args), Map.of(), logs)) {
      return jvm.awaitLine("runtime INFO enabled: ");
    }
  }

  /** Builds the jar's command line for its arguments, as {@code Main.run} does, and says what the runtime would log. */
  static final class Probe {
    public static void main(String[] args) {
      Main.commandLine(args);
      System.out.println("runtime INFO enabled: " + LoggerFactory.getLogger(WebhookRuntime.class).isInfoEnabled());
    }
  }
}
