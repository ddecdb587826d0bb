package dev.hookledger.runtime.testing;

import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookRuntime;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;

/**
 * A runtime built, migrated and started, behind a {@link WebhookFilter} registered programmatically
 * on a {@link TestServer}. Closing it stops the server, then the runtime.
 */
public record ServedRuntime(WebhookRuntime runtime, TestServer server) implements AutoCloseable {

  public static ServedRuntime serve(WebhookRuntime.Builder builder) {
    WebhookRuntime runtime = builder.build();
    runtime.migrate();
    runtime.start();
    TestServer server = TestServer.start(context -> context.addFilter(new FilterHolder(new WebhookFilter(runtime)), "/*",
        EnumSet.of(DispatcherType.REQUEST)));
    return new ServedRuntime(runtime, server);
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
