package dev.hookledger.runtime.spring.internal;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.web.AdminServlet;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * The admin servlet as Boot registers it while it creates the web server: the {@link AdminServlet}
 * is made on the first request, from the runtime {@link RuntimeLifecycle} has built by then, so that
 * registering it creates no bean early (see {@link DeferredWebhookFilter}).
 */
final class DeferredAdminServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private final transient Supplier<WebhookRuntime> runtime;
  private final transient AdminAuthorizer authorizer;
  private transient volatile AdminServlet delegate;

  DeferredAdminServlet(Supplier<WebhookRuntime> runtime, AdminAuthorizer authorizer) {
    this.runtime = runtime;
    this.authorizer = authorizer;
  }

  @Override
  public void service(ServletRequest req, ServletResponse res) throws ServletException, IOException {
    AdminServlet d = delegate;
    if (d == null) {
      synchronized (this) {
        d = delegate;
        if (d == null) {
          d = new AdminServlet(runtime.get(), authorizer);
          d.init(getServletConfig());
          delegate = d;
        }
      }
    }
    d.service(req, res);
  }
}
