package dev.hookledger.samples.docs;

import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.HealthServlet;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.ReplaySources;
import dev.hookledger.runtime.admin.RetrySelection;
import dev.hookledger.runtime.admin.web.AdminServlet;
import dev.hookledger.runtime.micrometer.InboxBacklogMetrics;
import dev.hookledger.runtime.micrometer.MicrometerWebhookListener;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import javax.sql.DataSource;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

/**
 * The examples of docs/operating.md, compiled: {@code DocSnippetsTest} checks that each marked block of
 * that page is made of these lines, in this order.
 */
final class OperatingExamples {
  private OperatingExamples() {}

  static void admin(DataSource dataSource, WebhookRuntime runtime) {
    InboxAdmin admin = InboxAdmin.builder(dataSource)   // the ledger's database
        .schema("hookledger")                            // default
        .build();
    InboxAdmin same = runtime.admin();                   // or over a runtime's own database, schema and clock

    RetrySelection s = RetrySelection.failing().provider("stripe").cause("PSQLException: ...");
    admin.retry(s, admin.retryCount(s));   // as the operator confirmed the count shown
  }

  static void pages(ServletContextHandler context, WebhookRuntime runtime, String stripeReadKey) {
    AdminAuthorizer auth = AdminAuthorizer.bearerToken(System.getenv("HOOKLEDGER_ADMIN_TOKEN"));
    context.addServlet(new ServletHolder(new AdminServlet(runtime, auth)), "/admin/*");   // or (admin, auth)
    // reconcile's API keys come from HOOKLEDGER_<PROVIDER>_<SETTING> (as the command line's); to pass them yourself:
    new AdminServlet(runtime, auth, ReplaySources.of(Map.of("HOOKLEDGER_STRIPE_API_KEY", stripeReadKey)));

    context.addServlet(new ServletHolder(new HealthServlet(runtime)), "/healthz");
  }

  static void metrics(MeterRegistry registry, WebhookListener tracing, WebhookRuntime runtime) {
    WebhookListener metrics = MicrometerWebhookListener.of(registry);
    WebhookRuntime.builder().listener(metrics).listener(tracing);  // each called in turn; a throwing one is skipped
    new InboxBacklogMetrics(runtime.admin()).bindTo(registry);     // backlog gauges
  }
}
