package dev.hookledger.samples.demo;

import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code demo}: the narrated end-to-end demo; exit code 0 only if exactly-once held. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Starts an embedded PostgreSQL and the sample server, sends it signed Stripe, GitHub"
        + " and Shopify deliveries the way real providers misbehave, and reports whether every effect"
        + " happened exactly once (exit code 0 only if so).")
public final class DemoCommand implements Callable<Integer> {

  @Override
  public Integer call() throws Exception {
    // the narrated report is the output: library logs only when something is really wrong
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    Demo.Result result = new Demo(System.out, Clock.systemUTC()).run();
    return result.exactlyOnce() ? 0 : 1;
  }
}
