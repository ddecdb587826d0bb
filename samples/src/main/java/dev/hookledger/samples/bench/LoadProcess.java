package dev.hookledger.samples.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.samples.traffic.SampleSigners;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The load generator in a process of its own, so that its CPU is not the server's: {@code bench}
 * starts it once as a child JVM on its own class path, with the secrets in its environment, and
 * sends it one {@link LoadPlan.Spec} per phase on standard input; it answers each with the run's
 * figures as one line of JSON. Ends when its standard input closes.
 */
final class LoadProcess implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String RESULT = "result ";

  private final Process process;
  private final PrintStream commands;
  private final BufferedReader results;
  private final Path stderr;

  private LoadProcess(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    this.results = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /**
   * Starts the child JVM, which signs with {@code secrets}.
   *
   * @param cpus where {@code taskset} pins it (e.g. {@code 1}), or null to leave it where the scheduler puts it
   */
  static LoadProcess start(SampleSecrets secrets, String cpus) {
    List<String> command = new ArrayList<>();
    if (cpus != null) {
      command.addAll(List.of("taskset", "-c", cpus));
    }
    command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // a small client: its collector and JIT threads are CPU the server does not get
        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        LoadProcess.class.getName()));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().putAll(Map.of(SampleSecrets.STRIPE_ENV, secrets.stripe(), SampleSecrets.GITHUB_ENV, secrets.github(),
        SampleSecrets.SHOPIFY_ENV, secrets.shopify()));
    try {
      Path stderr = Files.createTempFile("hookledger-bench-load-", ".stderr");
      pb.redirectError(stderr.toFile());
      return new LoadProcess(pb.start(), stderr);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the load generator's process", e);
    }
  }

  /** The CPUs process {@code pid} may run on, as {@code taskset -p} says them, e.g. {@code 0-1}. */
  static String affinity(long pid) {
    try {
      Process p = new ProcessBuilder("taskset", "-cp", Long.toString(pid)).redirectErrorStream(true).start();
      String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      p.waitFor(10, TimeUnit.SECONDS);
      int colon = said.lastIndexOf(':');
      return colon < 0 ? said : said.substring(colon + 1).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run taskset", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  /** Sends {@code spec}'s plan to {@code target} with {@code clients} clients, for at most {@code maxSeconds}. */
  LoadGenerator.Run run(URI target, LoadPlan.Spec spec, int clients, int maxSeconds) {
    commands.printf("%s %d %s %d %d %d %d %s%n", target, spec.deliveries(), spec.duplicateRatio(), spec.seed(),
        spec.entities(), clients, maxSeconds, spec.provider().isEmpty() ? "-" : spec.provider());
    try {
      for (String line = results.readLine(); line != null; line = results.readLine()) {
        if (line.startsWith(RESULT)) {
          return parse(JSON.readTree(line.substring(RESULT.length())));
        }
      }
      throw new IllegalStateException("the load generator's process ended: " + Files.readString(stderr));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the load generator's process", e);
    }
  }

  private static LoadGenerator.Run parse(JsonNode r) {
    if (r.has("error")) {
      throw new IllegalStateException("the load generator's process failed: " + r.path("error").asText());
    }
    long[] latencies = new long[r.path("latencies").size()];
    for (int i = 0; i < latencies.length; i++) {
      latencies[i] = r.path("latencies").get(i).asLong();
    }
    Map<String, Long> answers = new TreeMap<>();
    r.path("answers").properties().forEach(e -> answers.put(e.getKey(), e.getValue().asLong()));
    return new LoadGenerator.Run(r.path("sent").asInt(), r.path("elapsedNanos").asLong(), new Latencies(latencies),
        answers, r.path("cutOff").asBoolean());
  }

  @Override
  public void close() throws IOException {
    commands.close();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    Files.deleteIfExists(stderr);
  }

  /** The child's side: one run per line of standard input, one {@code result} line each. */
  public static void main(String[] args) throws Exception {
    SampleSigners sign = new SampleSigners(SampleSecrets.fromEnvironment(System.getenv()));
    Clock clock = Clock.systemUTC();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] f = line.split(" ");
      ObjectNode out = JSON.createObjectNode();
      try {
        LoadPlan plan = LoadPlan.of(new LoadPlan.Spec(Integer.parseInt(f[1]), Double.parseDouble(f[2]),
            Long.parseLong(f[3]), Integer.parseInt(f[4]), "-".equals(f[7]) ? "" : f[7]), clock);
        LoadGenerator.Run run = new LoadGenerator(URI.create(f[0]), sign, clock)
            .run(plan, Integer.parseInt(f[5]), System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(f[6])));
        out.put("sent", run.sent()).put("elapsedNanos", run.elapsedNanos()).put("cutOff", run.cutOff());
        run.answers().forEach(out.putObject("answers")::put);
        var latencies = out.putArray("latencies");
        for (long l : run.latencies().nanos()) {
          latencies.add(l);
        }
      } catch (RuntimeException e) {
        out.put("error", e.toString());
      }
      System.out.println(RESULT + out);
      System.out.flush();
    }
  }
}
