package dev.hookledger.runtime.cli;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code HookledgerCli} as an operator would: its output and exit code through
 * {@link HookledgerCli#run(java.io.PrintStream, java.io.PrintStream, String...)} in this JVM, or,
 * when the test sets environment variables (or this JVM has {@code HOOKLEDGER_*} settings of its
 * own that would leak into the options), as a separate JVM on this test's class path with exactly
 * that environment. A JVM per command cost about two seconds each, a minute and a half of the suite.
 */
final class CliProcess {
  private CliProcess() {}

  record Result(int exitCode, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }
  }

  /** Variables of the test run itself, which no CLI option reads. */
  private static final Set<String> TEST_ONLY = Set.of("HOOKLEDGER_TEST_DATABASE_URL", "HOOKLEDGER_WEBXML_SECRET");

  static Result run(Map<String, String> env, String... args) throws IOException, InterruptedException {
    boolean ownSettings = System.getenv().keySet().stream()
        .anyMatch(k -> k.startsWith("HOOKLEDGER_") && !TEST_ONLY.contains(k));
    if (env.isEmpty() && !ownSettings) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code;
      try (PrintStream o = new PrintStream(out, true, Charset.defaultCharset());
          PrintStream e = new PrintStream(err, true, Charset.defaultCharset())) {
        code = HookledgerCli.run(o, e, args);
      }
      return new Result(code, out.toString(Charset.defaultCharset()), err.toString(Charset.defaultCharset()));
    }
    return spawn(env, args);
  }

  /** In a JVM of its own, with only {@code env} of the {@code HOOKLEDGER_*} variables. */
  static Result spawn(Map<String, String> env, String... args) throws IOException, InterruptedException {
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
