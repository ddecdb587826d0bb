package dev.hookledger.samples.demo;

import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.cli.RuntimeOptions;
import dev.hookledger.samples.Main;
import java.net.URI;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code demo}: the narrated end-to-end demo; exit code 0 only if exactly-once held. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    // every runtime setting as an option (--workers, --retry-max-attempts, ...), else its HOOKLEDGER_* variable,
    // over the demo's own tuning (2 workers, retries within a second)
    modelTransformer = RuntimeOptions.class,
    description = "Starts an embedded PostgreSQL and the sample server, sends it signed Stripe, GitHub"
        + " and Shopify deliveries the way real providers misbehave, and reports whether every effect"
        + " happened exactly once (exit code 0 only if so).")
public final class DemoCommand implements Callable<Integer> {
  /** The narrated report is the output: library logs only when something is really wrong. */
  public static final String LOG_LEVEL = "error";

  @Option(names = "--target", paramLabel = "URL",
      description = "Send the demo's traffic to a running serve instead (http://127.0.0.1:8080), signed with"
          + " the secrets in STRIPE_WEBHOOK_SECRET..., to watch its admin page; checks the answers only.")
  URI target;

  @Option(names = "--poison", defaultValue = "3", paramLabel = "N",
      description = "With --target: EUR invoices the billing handler refuses on every attempt (default: ${DEFAULT-VALUE}).")
  int poison;

  @Spec CommandSpec spec;

  private final Map<String, String> environment;

  public DemoCommand() {
    this(System.getenv());
  }

  DemoCommand(Map<String, String> environment) {
    this.environment = environment;
  }

  @Override
  public Integer call() throws Exception {
    if (target != null) {
      String base = target.toString().replaceAll("/+$", "");
      return new TargetDemo(URI.create(base), poison, System.getenv(), System.out, Clock.systemUTC()).run() ? 0 : 1;
    }
    System.setProperty(Main.LOG_LEVEL_PROPERTY, LOG_LEVEL); // for a direct call; the jar's Main sets it first
    Demo.Result result = new Demo(System.out, Clock.systemUTC(), runtimeOptions()).run();
    return result.exactlyOnce() ? 0 : 1;
  }

  /** What the options and environment set on the demo server's runtime. */
  public UnaryOperator<WebhookRuntimeBuilder> runtimeOptions() {
    return b -> RuntimeOptions.configure(spec, b, environment);
  }
}
