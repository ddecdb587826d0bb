package dev.hookledger.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * picocli is an optional dependency: {@code java -cp <app class path> ...HookledgerCli} on an
 * application's class path without it says so in one line, naming the dependency, instead of a
 * {@code NoClassDefFoundError} and its trace.
 */
class CliWithoutPicocliTest {
  @Test
  void withoutPicocliTheCommandLineNamesTheMissingDependencyInOneLine() throws Exception {
    String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.contains("picocli"))
        .collect(Collectors.joining(File.pathSeparator));
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", classPath, HookledgerCli.class.getName(), "status")
        .start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(60, TimeUnit.SECONDS);

    assertEquals(1, p.exitValue(), err);
    assertEquals(List.of("hookledger: the command line needs picocli on the class path (info.picocli:picocli 4.7 or"
        + " later, an optional dependency of hookledger-sdk-runtime): add its jar to -cp, or run the samples jar,"
        + " which carries it"), err.lines().toList());
    assertEquals("", out);
  }
}
