package dev.hookledger.samples.demo;

import java.net.URI;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code demo}: the narrated end-to-end demo; exit code 0 only if exactly-once held. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Starts an embedded PostgreSQL and the sample server, sends it signed Stripe, GitHub"
        + " and Shopify deliveries the way real providers misbehave, and reports whether every effect"
        + " happened exactly once (exit code 0 only if so).")
public final class DemoCommand implements Callable<Integer> {
  @Option(names = "--target", paramLabel = "URL",
      description = "Send the demo's traffic to a running serve instead (http://127.0.0.1:8080), signed with"
          + " the secrets in STRIPE_WEBHOOK_SECRET..., to watch its admin page; checks the answers only.")
  URI target;

  @Option(names = "--poison", defaultValue = "3", paramLabel = "N",
      description = "With --target: EUR invoices the billing handler refuses on every attempt (default: ${DEFAULT-VALUE}).")
  int poison;

  @Override
  public Integer call() throws Exception {
    if (target != null) {
      String base = target.toString().replaceAll("/+$", "");
      return new TargetDemo(URI.create(base), poison, System.getenv(), System.out, Clock.systemUTC()).run() ? 0 : 1;
    }
    // the narrated report is the output: library logs only when something is really wrong
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    Demo.Result result = new Demo(System.out, Clock.systemUTC()).run();
    return result.exactlyOnce() ? 0 : 1;
  }
}
