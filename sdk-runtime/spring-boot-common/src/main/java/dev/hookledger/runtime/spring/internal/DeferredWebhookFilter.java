package dev.hookledger.runtime.spring.internal;

import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookRuntime;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * The webhook filter as Boot registers it while it creates the web server, before the application's
 * singletons exist: the {@link WebhookRuntime} (built from the handler beans) is asked for at the
 * first request, by when {@link RuntimeLifecycle} has built and started it, so that registering the
 * filter creates no bean early.
 */
final class DeferredWebhookFilter implements Filter {
  private final Supplier<WebhookRuntime> runtime;
  private final String pathPrefix;
  private volatile WebhookFilter delegate;

  DeferredWebhookFilter(Supplier<WebhookRuntime> runtime, String pathPrefix) {
    this.runtime = runtime;
    this.pathPrefix = pathPrefix;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
    WebhookFilter d = delegate;
    if (d == null) {
      synchronized (this) {
        d = delegate;
        if (d == null) {
          d = new WebhookFilter(runtime.get(), pathPrefix);
          delegate = d;
        }
      }
    }
    d.doFilter(req, res, chain);
  }
}
