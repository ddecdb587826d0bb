package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.internal.door.DoorOutcome;
import dev.hookledger.runtime.internal.door.DoorSequence;
import dev.hookledger.runtime.internal.servlet.Deliveries;
import dev.hookledger.runtime.internal.servlet.InitParams;
import dev.hookledger.runtime.internal.servlet.Responses;
import dev.hookledger.runtime.internal.servlet.WebhookPath;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servlet filter in front of a {@link WebhookRuntime}: it owns a path prefix (default
 * {@code /webhooks/}), reads each delivery's raw body itself before any framework can parse it, and
 * answers from what the runtime did. Requests outside the prefix pass down the chain untouched.
 *
 * <h2>Programmatic registration</h2>
 * <pre>{@code
 * WebhookRuntime runtime = WebhookRuntime.builder()...build();
 * runtime.migrate();
 * runtime.start();
 * FilterRegistration.Dynamic f = servletContext.addFilter("hookledger", new WebhookFilter(runtime));
 * f.addMappingForUrlPatterns(null, false, "/*");
 * // the application owns the runtime: close it when the context stops
 * }</pre>
 *
 * <h2>Registration in {@code web.xml}</h2>
 * The filter then builds, migrates and starts its own runtime in {@link #init}, and closes it in
 * {@link #destroy}. Secrets come from environment variables only: {@code HOOKLEDGER_<PROVIDER>_SECRET}
 * by default (comma-separated for rotation), or the variable named by {@code <provider>.secret-env}.
 * <pre>{@code
 * <filter>
 *   <filter-name>hookledger</filter-name>
 *   <filter-class>dev.hookledger.runtime.WebhookFilter</filter-class>
 *   <init-param><param-name>providers</param-name><param-value>stripe,github</param-value></init-param>
 *   <init-param><param-name>handlers</param-name><param-value>com.acme.Billing,com.acme.Issues</param-value></init-param>
 *   <!-- optional: jdbc-url (else the variable named by jdbc-url-env, default HOOKLEDGER_JDBC_URL),
 *        path-prefix, <provider>.secret-env, <provider>.max-body-bytes, and every option of the runtime's
 *        settings catalogue by its key (schema, mode, workers, lease, retry.max-attempts, handler-timeout, ...;
 *        durations as 500ms, 30s, 5m or PT30S), else its environment variable (HOOKLEDGER_WORKERS, ...) -->
 *   <init-param><param-name>stripe.secret-env</param-name><param-value>STRIPE_WEBHOOK_SECRET</param-value></init-param>
 * </filter>
 * <filter-mapping><filter-name>hookledger</filter-name><url-pattern>/*</url-pattern></filter-mapping>
 * }</pre>
 *
 * <h2>Answers</h2>
 * Plain text naming the reason, never a secret, the body or the configuration:
 * 200 {@code accepted} (only once the row is committed), {@code duplicate} or {@code processed}
 * (INLINE); 400 malformed; 401 missing, malformed or wrong signature, stale timestamp, naming the
 * check that failed and nothing more (never how many secrets exist or their ids); 404 unknown
 * provider; 405 not POST (with {@code Allow: POST}); 413 body over the provider's limit, whether
 * declared by {@code Content-Length} or sent chunked (reading stops past the limit); 500 an INLINE
 * handler failed; 408 the body did not arrive within the {@linkplain WebhookRuntimeBuilder#bodyReadTimeout
 * body read timeout}; 503 with {@code Retry-After}, one answer for every overload: the ledger
 * cannot record the delivery, its writers are saturated, or the runtime's
 * {@linkplain WebhookRuntimeBuilder#maxInFlightBodyBytes body budget} cannot hold the body.
 *
 * <h2>Hostile input</h2>
 * Before a byte of the body is read, the adapter looks at the headers
 * ({@link dev.hookledger.spi.ProviderAdapter#checkHeaders}): no signature header, a malformed one
 * or no secret for the tenant is answered 401 at once, and the connection closed. Then the body
 * reserves its bytes in the runtime's budget as they arrive (never the declared
 * {@code Content-Length}: a forged signature with a large declared length and a trickle of bytes
 * holds only those bytes), at most half the budget for one body, within a total read deadline.
 *
 * <h2>Shadow mode</h2>
 * With {@link ProcessingMode#SHADOW} the filter answers nothing: it records each delivery (new
 * events settled as {@code ignored}, source {@code shadow}, so that enforcing later never runs them;
 * duplicates counted in the ledger's {@code duplicates} column), runs no handler, and passes every
 * request under its prefix on down the chain with the body readable again (stream, reader or form
 * parameters), byte for byte. Deliveries enforcing would refuse are passed on too: the existing
 * endpoint decides, while the listener counts them ({@code rejected}) and a WARN line names the
 * reason. If the existing endpoint fails a new event (a status outside 2xx, or an exception), its
 * row is taken back, so that the provider's redelivery is processed after the switch to enforcing.
 * Switching to enforcing is the one setting {@code mode}.
 *
 * <p>Thread-safe.
 */
public final class WebhookFilter implements Filter {
  private static final Logger log = LoggerFactory.getLogger(WebhookFilter.class);
  private static final Pattern PROVIDER_ID = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,63}");

  private final Function<String, String> environment;
  private volatile WebhookRuntime runtime;
  private volatile WebhookPath path;
  private volatile boolean ownsRuntime;

  /** For {@code web.xml}: the runtime is built from init-params in {@link #init}. */
  public WebhookFilter() {
    this(System::getenv);
  }

  /** Serves {@code runtime} under {@code /webhooks/}; the caller starts and closes the runtime. */
  public WebhookFilter(WebhookRuntime runtime) {
    this(runtime, "/webhooks/");
  }

  /** Serves {@code runtime} under {@code pathPrefix}, e.g. {@code /hooks/}; the caller starts and closes the runtime. */
  public WebhookFilter(WebhookRuntime runtime, String pathPrefix) {
    this.environment = System::getenv;
    this.runtime = requireNonNull(runtime, "runtime");
    this.path = WebhookPath.of(pathPrefix);
  }

  /** For tests: a {@code web.xml} filter whose environment variables come from {@code environment}. */
  WebhookFilter(Function<String, String> environment) {
    this.environment = requireNonNull(environment, "environment");
  }

  /**
   * Builds, migrates and starts the runtime from the init-params when none was given.
   *
   * @throws ServletException naming the init-param, environment variable or handler at fault
   */
  @Override
  public void init(FilterConfig config) throws ServletException {
    if (runtime != null) {
      return;
    }
    Map<String, String> params = new HashMap<>();
    for (String name : Collections.list(config.getInitParameterNames())) {
      params.put(name, config.getInitParameter(name));
    }
    WebhookRuntime built = null;
    try {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      InitParams.Configured configured = InitParams.read(params, environment,
          loader != null ? loader : WebhookFilter.class.getClassLoader());
      built = configured.builder().build();
      built.migrate();
      built.start();
      path = configured.path();
    } catch (RuntimeException e) {
      if (built != null) {
        built.close();
      }
      throw new ServletException("hookledger filter '" + config.getFilterName() + "': " + e.getMessage(), e);
    }
    runtime = built;
    ownsRuntime = true;
    log.info("hookledger filter '{}' serving {}", config.getFilterName(), path.prefix());
  }

  /** Closes the runtime if this filter built it. */
  @Override
  public void destroy() {
    if (ownsRuntime) {
      runtime.close();
    }
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
    if (req instanceof HttpServletRequest request && res instanceof HttpServletResponse response && runtime != null) {
      String requestPath = Deliveries.pathOf(request);
      Optional<String> provider = path.provider(requestPath);
      if (provider.isPresent() && runtime.mode() == ProcessingMode.SHADOW) {
        try (ShadowPass.Passed passed =
            ShadowPass.record(runtime, request, requestPath, path.providerPath(requestPath), provider.get())) {
          ShadowOutcome.passOn(runtime, passed.request(), response, chain);
        }
        return;
      }
      if (provider.isPresent()) {
        serve(request, response, requestPath, provider.get());
        return;
      }
    }
    chain.doFilter(req, res);
  }

  private void serve(HttpServletRequest request, HttpServletResponse response, String requestPath, String provider)
      throws IOException {
    try (DoorOutcome outcome = DoorSequence.pass(runtime.door(), runtime::receive, request, requestPath,
        path.providerPath(requestPath), provider)) {
      answer(outcome, request, response, provider);
    }
  }

  private void answer(DoorOutcome outcome, HttpServletRequest request, HttpServletResponse response, String provider)
      throws IOException {
    if (outcome instanceof DoorOutcome.Received r) {
      Responses.text(response, 200, r.receipt().outcome().name().toLowerCase(Locale.ROOT));
    } else if (outcome instanceof DoorOutcome.UnknownProvider) {
      Responses.text(response, 404, provider.isEmpty()
          ? "no provider in the path: deliveries go to " + path.prefix() + "{provider}"
          : unknownProvider(provider));
    } else if (outcome instanceof DoorOutcome.NotPost) {
      Responses.methodNotAllowed(response, request.getMethod());
    } else if (outcome instanceof DoorOutcome.Refused r) {
      if (r.body() == null) {
        Responses.unread(response); // refused from headers alone: the body nobody wants is not read
      }
      Responses.rejected(response, r.rejection());
    } else if (outcome instanceof DoorOutcome.Unreadable u) {
      log.debug("{} delivery body could not be read: {}", provider, u.cause().toString());
      Responses.text(response, 400, "malformed: the body could not be read");
    } else if (outcome instanceof DoorOutcome.OverBudget) {
      log.debug("{} delivery answered 503: the body budget is spent ({})", provider, runtime.door().bodyBudget());
      Responses.unavailable(response);
    } else if (outcome instanceof DoorOutcome.TimedOut t) {
      log.debug("{} delivery answered 408: its body did not arrive within {}", provider, t.limit());
      Responses.timedOut(response);
    } else if (outcome instanceof DoorOutcome.Unavailable u) {
      log.warn("{} delivery answered 503: {}", provider, u.cause().getMessage());
      Responses.unavailable(response);
    } else if (outcome instanceof DoorOutcome.HandlerFailed) {
      Responses.text(response, 500, "handler failed: nothing was recorded; redeliver to retry");
    } else if (outcome instanceof DoorOutcome.Failed f) {
      if (f.body() == null) {
        log.error("{} delivery's header check failed unexpectedly", provider, f.cause());
        Responses.unread(response);
      } else {
        log.error("{} delivery failed unexpectedly", provider, f.cause());
      }
      Responses.text(response, 500, "internal error");
    }
  }

  /** Echoes the id only when it looks like one: the path segment is the caller's text. */
  private static String unknownProvider(String provider) {
    return PROVIDER_ID.matcher(provider).matches() ? "unknown provider '" + provider + "'" : "unknown provider";
  }
}
