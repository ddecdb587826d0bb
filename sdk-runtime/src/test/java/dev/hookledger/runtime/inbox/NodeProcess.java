package dev.hookledger.runtime.inbox;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** {@link WorkerNodeMain} in a separate JVM on this test's class path: a second process on the same ledger. */
final class NodeProcess implements AutoCloseable {
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final URI webhookUri;

  private NodeProcess(Process process) {
    this.process = process;
    Thread reader = new Thread(this::readLines, "node-process-stdout");
    reader.setDaemon(true);
    reader.start();
    this.webhookUri = URI.create(awaitLine("url ").substring(4));
  }

  /** Starts a node named {@code node}; {@code hang} makes its {@code job.hang} events block their worker. */
  static NodeProcess start(String jdbcUrl, String node, boolean hang) {
    return start(jdbcUrl, node, hang ? "hang" : null);
  }

  /** Starts a node named {@code node} in a mode of {@link WorkerNodeMain} ({@code hang}, {@code backfill}), or none. */
  static NodeProcess start(String jdbcUrl, String node, String mode) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx256m",
        "-cp", System.getProperty("java.class.path"),
        WorkerNodeMain.class.getName(), jdbcUrl, node));
    if (mode != null) {
      command.add(mode);
    }
    try {
      return new NodeProcess(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + WorkerNodeMain.class.getName(), e);
    }
  }

  URI webhookUri() {
    return webhookUri;
  }

  long pid() {
    return process.pid();
  }

  /**
   * The next line the node prints that starts with {@code prefix}, within 180 s: a bound on a hang, not a
   * claim about speed (a child JVM's start took over 60 s once, on 2 cores at a load average of ~80). A line
   * that comes sooner is returned at once; a node that exits first fails at once.
   */
  String awaitLine(String prefix) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    try {
      while (System.nanoTime() < deadline) {
        String line = lines.poll(100, TimeUnit.MILLISECONDS);
        if (line != null && line.startsWith(prefix)) {
          return line;
        }
        if (line == null && !process.isAlive() && lines.isEmpty()) {
          throw new AssertionError("node process exited with " + process.exitValue() + " before printing '" + prefix + "'");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new AssertionError("node process did not print '" + prefix + "' within 180 s");
  }

  /** Kills the process at once, as a crash would: no shutdown, no commit, its sockets closed by the OS. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    if (process.isAlive()) {
      try (Writer in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8)) {
        in.write("stop\n");
      } catch (IOException e) {
        // it is exiting already
      }
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("node process did not stop within 30 s");
      }
    }
  }

  private void readLines() {
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      // the process is gone
    }
  }
}
