package dev.hookledger.samples.server;

import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.cli.RuntimeOptions;
import dev.hookledger.samples.app.SampleHandlers;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code serve}: the sample application for real use, until SIGTERM or Ctrl-C, then a graceful
 * stop (requests in flight answered, workers drained, database closed).
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    // every runtime setting as an option (--workers, --lease, --retry-first-delay, ...), else its HOOKLEDGER_* variable
    modelTransformer = RuntimeOptions.class,
    description = {
        "Serves the sample application: POST /webhooks/stripe|github|shopify, the operations page at"
            + " /admin, and the business state at /sample/state.json.",
        "Secrets come from STRIPE_WEBHOOK_SECRET, GITHUB_WEBHOOK_SECRET and SHOPIFY_WEBHOOK_SECRET;"
            + " any that is unset is generated for development and printed.",
        "Every runtime setting is an option (--workers, --retry-first-delay 100ms, --retry-max-attempts 3, ...)"
            + " or an environment variable (HOOKLEDGER_WORKERS, ...); see the table in docs/configuration.md.",
        "With STANDARD_WEBHOOK_SECRET (whsec_...) set, Standard Webhooks deliveries are also served at"
            + " POST /webhooks/standard.",
        "The admin page asks for the token in HOOKLEDGER_ADMIN_TOKEN (Authorization: Bearer <token>, or as the"
            + " password a browser asks for); if unset, one is generated and printed once."})
public final class ServeCommand implements Callable<Integer> {
  /** Where the embedded database keeps its data unless {@code --data-dir} says otherwise. */
  public static final Path DEFAULT_DATA_DIR =
      Path.of(System.getProperty("user.home"), ".hookledger", "samples-db");

  @Option(names = "--port", defaultValue = "8080", description = "HTTP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--database-url", paramLabel = "URL",
      description = "A PostgreSQL to use instead of the embedded one: jdbc:postgresql://host:port/db?user=..&password=..")
  String databaseUrl;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Where the embedded PostgreSQL keeps its data (default: ~/.hookledger/samples-db).")
  Path dataDir = DEFAULT_DATA_DIR;

  @Option(names = "--receipt-url", paramLabel = "URL",
      description = "Send a receipt for each paid Stripe invoice to this URL through the outbox: a POST of JSON with the"
          + " invoice id, its Idempotency-Key the same on every try, committed with the booking.")
  URI receiptUrl;

  @Spec CommandSpec spec;

  private final PrintStream out;
  private final Map<String, String> environment;

  public ServeCommand() {
    this(System.out, System.getenv());
  }

  ServeCommand(PrintStream out, Map<String, String> environment) {
    this.out = out;
    this.environment = environment;
  }

  @Override
  public Integer call() throws InterruptedException {
    SampleApp app = start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      out.println("stopping: answering requests in flight, draining workers, closing the database");
      try {
        app.close();
        if (databaseUrl == null) {
          RunningServe.withdraw(dataDir);
        }
        out.println("stopped");
      } finally {
        out.flush();
        stopped.countDown();
      }
    }, "samples-shutdown"));
    stopped.await();
    return 0;
  }

  /** Starts the app as configured and prints how to reach it; the caller closes it. */
  SampleApp start() {
    SampleSecrets secrets = SampleSecrets.fromEnvironment(environment);
    secrets.unusable().ifPresent(problem -> {
      throw new ParameterException(spec.commandLine(), problem + "; set it to the provider's secret, or unset it to"
          + " have one generated for this run");
    });
    try {
      AdminAuthorizer.bearerToken(secrets.adminToken()); // refused before anything starts, in one line
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), SampleSecrets.ADMIN_TOKEN_ENV + ": " + e.getMessage()
          + "; unset it to have one generated");
    }
    ReceiptTarget receipts = receiptTarget(); // refused before the database starts
    SampleDatabase database = databaseUrl != null
        ? SampleDatabase.external(databaseUrl)
        : SampleDatabase.embedded(dataDir);
    RetryPolicy policy = retryPolicy();
    SampleApp app = receipts == null
        ? SampleApp.start(database, secrets, host, port, runtimeOptions())
        : SampleApp.start(database, secrets, host, port, SampleHandlers.withReceipts(receipts.path()),
            b -> runtimeOptions().apply(b).destination(receipts.destination()));
    if (databaseUrl == null) {
      RunningServe.publish(dataDir, database.jdbcUrl()); // for status, list, retry... while it runs
    }
    printSecrets(secrets);
    out.println("database: " + database.description());
    out.println("routes:   POST " + app.uri() + "/webhooks/stripe | github | shopify"
        + (secrets.standard().isEmpty() ? "" : " | " + SampleApp.STANDARD_PROVIDER));
    out.println("          GET  " + app.uri() + "/admin        (operations; Authorization: Bearer $HOOKLEDGER_ADMIN_TOKEN)");
    out.println("          GET  " + app.uri() + "/healthz      (200 up / 503 down)");
    out.println("          GET  " + app.uri() + "/metrics      (Prometheus scrape)");
    out.println("          GET  " + app.uri() + "/sample/state.json");
    if (receipts != null) {
      out.println("receipts: POST " + receiptUrl + " for each paid invoice (outbox destination "
          + receipts.destination().name() + ")");
    }
    out.println("retries:  " + policy.maxAttempts() + " attempts, the first retry after "
        + Durations.format(policy.firstDelay()) + ", doubling up to " + Durations.format(policy.maxDelay()));
    out.println("listening on " + app.uri());
    out.flush();
    return app;
  }

  /** Where {@code --receipt-url} sends receipts, or null without it; a bad URL is named with its option. */
  private ReceiptTarget receiptTarget() {
    if (receiptUrl == null) {
      return null;
    }
    try {
      return ReceiptTarget.of(receiptUrl);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--receipt-url " + e.getMessage());
    }
  }

  /** What the options and environment set on the runtime; each bad value is named with its option. */
  public UnaryOperator<WebhookRuntimeBuilder> runtimeOptions() {
    return b -> RuntimeOptions.configure(spec, b, environment);
  }

  /** The default policy with what the options and environment change; each bad value is named with its option. */
  RetryPolicy retryPolicy() {
    return RuntimeOptions.retryPolicy(spec, environment);
  }

  private void printSecrets(SampleSecrets secrets) {
    if (secrets.generated().isEmpty()) {
      return;
    }
    out.println("DEVELOPMENT ONLY: no secret configured for " + String.join(", ", secrets.generated())
        + "; generated these for this run.");
    out.println("Sign test deliveries with them; never use them in production (set the variables instead):");
    for (String name : secrets.generated()) {
      out.println("  " + name + "=" + secrets.valueOf(name));
    }
  }
}
