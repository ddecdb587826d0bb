package dev.hookledger.samples.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM running a main class of the test class path, with its own environment (which a test
 * cannot change in its own JVM): for {@code serve} as a process, and for {@code web.xml}, whose
 * secrets come from environment variables only. Standard output is collected line by line;
 * standard error goes to a file, shown when a wait fails.
 */
public final class ChildJvm implements AutoCloseable {
  /**
   * A child's start includes the embedded PostgreSQL's first {@code initdb} of a fresh data
   * directory: on a 2-core machine at load average 30 a {@code serve} child had printed only its
   * first line after 90 s. A bound, not an expected time: a healthy start takes a few seconds.
   */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(240);

  private final Process process;
  private final Path stderr;
  private final List<String> lines = new ArrayList<>();
  private boolean ended;

  private final Thread reader;

  private ChildJvm(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    this.reader = new Thread(this::readStdout, "child-jvm-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code mainClass} with {@code args}, adding {@code env} to (a copy of) this environment. */
  public static ChildJvm start(Class<?> mainClass, List<String> args, Map<String, String> env, Path logDir) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", System.getProperty("java.class.path"), mainClass.getName()));
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().keySet().removeIf(k -> k.endsWith("_WEBHOOK_SECRET") || k.startsWith("HOOKLEDGER_"));
    pb.environment().putAll(env);
    try {
      Path stderr = Files.createTempFile(logDir, "child-", ".stderr");
      pb.redirectError(stderr.toFile());
      return new ChildJvm(pb.start(), stderr);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + mainClass.getName(), e);
    }
  }

  private void readStdout() {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        synchronized (lines) {
          lines.add(line);
          lines.notifyAll();
        }
      }
    } catch (IOException e) {
      // the process went away: what it printed is kept
    } finally {
      synchronized (lines) {
        ended = true;
        lines.notifyAll();
      }
    }
  }

  /** Waits for a line starting with {@code prefix} and returns the rest of it. */
  public String awaitLine(String prefix) throws InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    synchronized (lines) {
      while (true) {
        for (String line : lines) {
          if (line.startsWith(prefix)) {
            return line.substring(prefix.length());
          }
        }
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0 || ended) {
          throw new AssertionError("no line '" + prefix + "...' within " + START_TIMEOUT.toSeconds()
              + " s; stdout: " + lines + "; stderr: " + stderrText());
        }
        lines.wait(Math.min(left, 200));
      }
    }
  }

  /** Everything printed on standard output so far. */
  public String output() {
    synchronized (lines) {
      return String.join("\n", lines);
    }
  }

  /** Sends SIGTERM, as {@code kill} or a container stop does, and waits for the exit code. */
  public int terminate() throws InterruptedException {
    // Process.destroy() would also close our end of its output, losing what the shutdown prints
    process.toHandle().destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("did not stop within 60 s of SIGTERM; stderr: " + stderrText());
    }
    reader.join(10_000); // the last lines it printed
    return process.exitValue();
  }

  /** Kills the JVM with SIGKILL, as a crash or the OOM killer would: no shutdown hook runs. */
  public void kill() throws InterruptedException {
    process.toHandle().destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("still alive 30 s after SIGKILL");
    }
  }

  public String stderrText() {
    try {
      return Files.readString(stderr);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      terminate();
    }
  }
}
