package dev.hookledger.runtime.testing;

import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.util.EnumSet;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;

/**
 * A runtime built, migrated and started, behind a {@link WebhookFilter} registered programmatically
 * on a {@link TestServer}. Closing it stops the server, then the runtime.
 */
public record ServedRuntime(WebhookRuntime runtime, TestServer server) implements AutoCloseable {

  public static ServedRuntime serve(WebhookRuntimeBuilder builder) {
    return serve(builder, context -> {});
  }

  /** As {@link #serve(WebhookRuntimeBuilder)}, with more of the servlet context (the application's own servlets). */
  public static ServedRuntime serve(WebhookRuntimeBuilder builder, Consumer<ServletContextHandler> application) {
    WebhookRuntime runtime = builder.build();
    runtime.migrate();
    runtime.start();
    return new ServedRuntime(runtime, TestServer.start(context -> {
      filter(context, runtime);
      application.accept(context);
    }));
  }

  /** Registers a {@link WebhookFilter} of {@code runtime} in front of every request of {@code context}. */
  public static void filter(ServletContextHandler context, WebhookRuntime runtime) {
    context.addFilter(new FilterHolder(new WebhookFilter(runtime)), "/*", EnumSet.of(DispatcherType.REQUEST));
  }

  public URI uri(String path) {
    return server.uri(path);
  }

  @Override
  public void close() throws Exception {
    try {
      server.close();
    } finally {
      runtime.close();
    }
  }
}
