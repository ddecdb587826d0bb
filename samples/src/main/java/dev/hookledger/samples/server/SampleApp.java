package dev.hookledger.samples.server;

import static java.util.Objects.requireNonNull;

import dev.hookledger.Secrets;
import dev.hookledger.github.GitHubAdapter;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.micrometer.InboxBacklogMetrics;
import dev.hookledger.runtime.micrometer.MicrometerWebhookListener;
import dev.hookledger.samples.app.SampleHandlers;
import dev.hookledger.samples.app.SampleSchema;
import dev.hookledger.shopify.ShopifyAdapter;
import dev.hookledger.standardwebhooks.StandardWebhooksAdapter;
import dev.hookledger.stripe.StripeAdapter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * The whole sample application, running: its database, the hookledger runtime with the three
 * providers and the sample handlers, and the HTTP server. What {@code serve}, {@code demo} and
 * {@code bench} start.
 *
 * <p>{@link #close()} stops in the order that loses nothing: the HTTP server first (requests in
 * flight are answered), then the runtime (workers finish the events they hold), then the database.
 */
public final class SampleApp implements AutoCloseable {
  /** The schema of the hookledger ledger; the sample's own tables live in {@code sample}. */
  public static final String LEDGER_SCHEMA = "hookledger";
  /** The provider id Standard Webhooks deliveries are served under: {@code /webhooks/standard}. */
  public static final String STANDARD_PROVIDER = "standard";

  private final SampleDatabase database;
  private final WebhookRuntime runtime;
  private final InboxAdmin admin;
  private final SampleServer server;

  private SampleApp(SampleDatabase database, WebhookRuntime runtime, InboxAdmin admin,
      SampleServer server) {
    this.database = database;
    this.runtime = runtime;
    this.admin = admin;
    this.server = server;
  }

  /**
   * Migrates the ledger and the sample schema in {@code database}, starts the runtime and serves it
   * on {@code host:port}. Takes ownership of {@code database}: it is closed with the app, or at
   * once if the start fails.
   *
   * @param tuning adjusts the runtime's builder (workers, mode, retry policy, clock, listener)
   *     before it is built; {@link UnaryOperator#identity()} for the defaults
   */
  public static SampleApp start(SampleDatabase database, SampleSecrets secrets, String host, int port,
      UnaryOperator<WebhookRuntimeBuilder> tuning) {
    return start(database, secrets, host, port, SampleHandlers.all(), tuning);
  }

  /** As {@link #start(SampleDatabase, SampleSecrets, String, int, UnaryOperator)}, with these handlers instead of the sample's. */
  public static SampleApp start(SampleDatabase database, SampleSecrets secrets, String host, int port,
      List<Object> handlers, UnaryOperator<WebhookRuntimeBuilder> tuning) {
    requireNonNull(database, "database");
    WebhookRuntime runtime = null;
    try {
      DataSource ds = database.dataSource();
      SampleSchema.migrate(ds);
      PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      runtime = tuning.apply(runtimeBuilder(ds, secrets, handlers).listener(MicrometerWebhookListener.of(metrics)))
          .build();
      runtime.migrate();
      runtime.start();
      InboxAdmin admin = runtime.admin();
      new InboxBacklogMetrics(admin).bindTo(metrics);
      SampleServer server = SampleServer.start(host, port, runtime, secrets.adminToken(), ds, metrics);
      return new SampleApp(database, runtime, admin, server);
    } catch (RuntimeException e) {
      if (runtime != null) {
        runtime.close();
      }
      database.close();
      throw e;
    }
  }

  /**
   * The runtime configuration every sample shares: the ledger in {@value #LEDGER_SCHEMA}, the three
   * providers with their secrets (and Standard Webhooks as provider {@code standard} when its secret
   * is set), and the sample handlers.
   */
  public static WebhookRuntimeBuilder runtimeBuilder(DataSource dataSource, SampleSecrets secrets) {
    return runtimeBuilder(dataSource, secrets, SampleHandlers.all());
  }

  private static WebhookRuntimeBuilder runtimeBuilder(DataSource dataSource, SampleSecrets secrets,
      List<Object> handlers) {
    WebhookRuntimeBuilder b = WebhookRuntime.builder()
        .dataSource(dataSource)
        .schema(LEDGER_SCHEMA)
        // "new,old" during a rotation is two secrets, as the runtime reads every environment variable
        .provider(new StripeAdapter(), Secrets.fromEnvironment(SampleSecrets.STRIPE_ENV, secrets::valueOf))
        .provider(new GitHubAdapter(), Secrets.fromEnvironment(SampleSecrets.GITHUB_ENV, secrets::valueOf))
        .provider(new ShopifyAdapter(), Secrets.fromEnvironment(SampleSecrets.SHOPIFY_ENV, secrets::valueOf))
        .handlers(handlers.toArray());
    if (!secrets.standard().isEmpty()) {
      // decoded now, so that a secret that is not whsec_<base64> stops the start, not the first delivery
      b.provider(StandardWebhooksAdapter.named(STANDARD_PROVIDER),
          Secrets.builder().add(StandardWebhooksAdapter.secret("0", secrets.standard())).build());
    }
    return b;
  }

  public URI uri() {
    return server.uri();
  }

  public DataSource dataSource() {
    return database.dataSource();
  }

  public SampleDatabase database() {
    return database;
  }

  public WebhookRuntime runtime() {
    return runtime;
  }

  /** The operator's view of this app's ledger. */
  public InboxAdmin admin() {
    return admin;
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      try {
        runtime.close();
      } finally {
        database.close();
      }
    }
  }
}
