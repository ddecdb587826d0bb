package dev.hookledger.runtime.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs {@code HookledgerCli} as a separate JVM on this test's class path, as an operator would. */
final class CliProcess {
  private CliProcess() {}

  record Result(int exitCode, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }
  }

  static Result run(Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xshare:auto", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        HookledgerCli.class.getName()));
    command.addAll(List.of(args));
    File out = File.createTempFile("hookledger-cli", ".out");
    File err = File.createTempFile("hookledger-cli", ".err");
    try {
      ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out).redirectError(err);
      pb.environment().keySet().removeIf(k -> k.startsWith("HOOKLEDGER_"));
      pb.environment().putAll(env);
      Process p = pb.start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("hookledger " + String.join(" ", args) + " did not finish in 60 s");
      }
      return new Result(p.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8),
          Files.readString(err.toPath(), StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out.toPath());
      Files.deleteIfExists(err.toPath());
    }
  }
}
