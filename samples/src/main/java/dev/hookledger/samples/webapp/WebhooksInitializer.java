package dev.hookledger.samples.webapp;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.samples.server.SampleApp;
import dev.hookledger.samples.server.SampleSecrets;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.util.EnumSet;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Adds hookledger to an existing servlet application in code, without touching its
 * {@code web.xml}: builds the runtime over the application's own {@link DataSource}, registers
 * {@link WebhookFilter} on {@code /webhooks/*}, and closes the runtime when the application stops.
 *
 * <pre>{@code
 * // the application's bootstrap (embedded Jetty here; any Servlet 6 container works the same)
 * ServletContextHandler context = new ServletContextHandler();
 * context.addServlet(OrdersServlet.class, "/orders/*");                    // what was there
 * context.addServletContainerInitializer(new WebhooksInitializer(dataSource, secrets));
 * }</pre>
 *
 * <p>The application's other routes are untouched: the filter only answers {@code /webhooks/*}.
 */
public final class WebhooksInitializer implements ServletContainerInitializer {
  /** The name the filter is registered under. */
  public static final String FILTER_NAME = "hookledger";

  private final DataSource dataSource;
  private final SampleSecrets secrets;

  public WebhooksInitializer(DataSource dataSource, SampleSecrets secrets) {
    this.dataSource = requireNonNull(dataSource, "dataSource");
    this.secrets = requireNonNull(secrets, "secrets");
  }

  @Override
  public void onStartup(Set<Class<?>> classes, ServletContext context) {
    WebhookRuntime runtime = SampleApp.runtimeBuilder(dataSource, secrets).build();
    runtime.migrate();
    runtime.start();
    FilterRegistration.Dynamic filter = context.addFilter(FILTER_NAME, new WebhookFilter(runtime));
    filter.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/webhooks/*");
    context.addListener(new ServletContextListener() {
      @Override
      public void contextDestroyed(ServletContextEvent event) {
        runtime.close(); // drains the workers before the application's data source goes away
      }
    });
  }
}
