package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import dev.hookledger.runtime.testing.TestServer;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two ways to register the filter, programmatic and web.xml-style, each over real HTTP. */
class FilterRegistrationTest {
  static TestDatabase.Database db;

  @BeforeAll
  static void database() {
    db = TestDatabase.create();
  }

  @Test
  void programmaticRegistrationFromAServletContextListener() throws Exception {
    List<String> handled = new CopyOnWriteArrayList<>();
    try (WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema("programmatic")
        .provider(new TestHookAdapter(), Secrets.of("programmatic-secret"))
        .handlers(new Object() {
          @OnEvent("*")
          void any(WebhookEvent event) {
            handled.add(event.eventId());
          }
        })
        .build()) {
      runtime.migrate();
      runtime.start();
      ServletContextListener registration = new ServletContextListener() {
        @Override
        public void contextInitialized(ServletContextEvent event) {
          event.getServletContext().addFilter("hookledger", new WebhookFilter(runtime, "/hooks/"))
              .addMappingForUrlPatterns(null, false, "/*");
        }
      };
      try (TestServer server = TestServer.start(context -> context.addEventListener(registration))) {
        HttpResponse<String> response = TestHttp.send(new TestHookSigner("programmatic-secret")
            .request(server.uri("/hooks/testhook"), "evt_prog", "thing.done", "{}"));

        assertEquals("accepted\n", response.body());
        Await.until("the handler runs", () -> handled.contains("evt_prog"));
        HttpResponse<String> outside = TestHttp.send(HttpRequest.newBuilder(server.uri("/webhooks/testhook"))
            .POST(HttpRequest.BodyPublishers.ofString("not mine")).build());
        assertEquals("downstream POST /webhooks/testhook: not mine", outside.body());
      }
    }
  }

  @Test
  void initParamsBuildMigrateStartAndCloseTheFiltersOwnRuntime() throws Exception {
    Recorder.HANDLED.clear();
    Map<String, String> environment = Map.of(
        "HOOKLEDGER_JDBC_URL", db.jdbcUrl(),
        "HOOKLEDGER_TESTHOOK_SECRET", "old-secret, new-secret");
    FilterHolder holder = new FilterHolder(new WebhookFilter(environment::get));
    holder.setInitParameter("providers", "testhook");
    holder.setInitParameter("handlers", Recorder.class.getName());
    holder.setInitParameter("schema", "initparams");
    holder.setInitParameter("path-prefix", "/in");
    holder.setInitParameter("handler-timeout", "20s");
    holder.setInitParameter("statement-timeout", "4s");
    holder.setInitParameter("lock-timeout", "1500ms");
    holder.setInitParameter("idle-in-transaction-timeout", "2m");
    holder.setInitParameter("connect-timeout", "2s");
    holder.setInitParameter("socket-timeout", "PT5S");

    try (TestServer server = TestServer.start(context -> context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST)))) {
      HttpResponse<String> response = TestHttp.send(new TestHookSigner("new-secret")
          .request(server.uri("/in/testhook"), "evt_params", "thing.done", "{}"));

      assertEquals("accepted\n", response.body());
      Await.until("the handler runs", () -> Recorder.HANDLED.contains("evt_params"));
      assertEquals("1", LedgerRows.event(db.dataSource(), "initparams", "evt_params").orElseThrow().get("secret_id"),
          "the second secret of the rotation matched");
    }
    // client sessions other than this one; on Citus, its maintenance daemon's and its own internal
    // connections stay open in the same database and are not the runtime's
    Await.until("destroy() closed the runtime's pool", () -> LedgerRows.number(db.dataSource(),
        "select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
            + " and backend_type = 'client backend' and application_name not like 'citus%'") == 0);
  }

  @Test
  void webXmlDeploysTheFilterWithSecretsFromTheEnvironment(@TempDir Path webapp) throws Exception {
    Recorder.HANDLED.clear();
    Files.createDirectories(webapp.resolve("WEB-INF"));
    Files.writeString(webapp.resolve("WEB-INF/web.xml"), """
        <?xml version="1.0" encoding="UTF-8"?>
        <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
          <filter>
            <filter-name>hookledger</filter-name>
            <filter-class>dev.hookledger.runtime.WebhookFilter</filter-class>
            <init-param><param-name>jdbc-url</param-name><param-value>%s</param-value></init-param>
            <init-param><param-name>schema</param-name><param-value>webxml</param-value></init-param>
            <init-param><param-name>providers</param-name><param-value>testhook</param-value></init-param>
            <init-param><param-name>testhook.secret-env</param-name><param-value>HOOKLEDGER_WEBXML_SECRET</param-value></init-param>
            <init-param><param-name>handlers</param-name><param-value>%s</param-value></init-param>
          </filter>
          <filter-mapping><filter-name>hookledger</filter-name><url-pattern>/*</url-pattern></filter-mapping>
          <servlet>
            <servlet-name>downstream</servlet-name>
            <servlet-class>%s</servlet-class>
          </servlet>
          <servlet-mapping><servlet-name>downstream</servlet-name><url-pattern>/*</url-pattern></servlet-mapping>
        </web-app>
        """.formatted(db.jdbcUrl().replace("&", "&amp;"), Recorder.class.getName(),
        TestServer.DownstreamServlet.class.getName()));
    WebAppContext app = new WebAppContext(webapp.toString(), "/");
    app.setParentLoaderPriority(true);

    try (TestServer server = TestServer.start(app)) {
      // HOOKLEDGER_WEBXML_SECRET is set by the build (surefire) to "webxml-secret-old,webxml-secret-new"
      HttpResponse<String> response = TestHttp.send(new TestHookSigner("webxml-secret-new")
          .request(server.uri("/webhooks/testhook"), "evt_webxml", "thing.done", "{}"));

      assertEquals("accepted\n", response.body());
      Await.until("the handler runs", () -> Recorder.HANDLED.contains("evt_webxml"));
      assertEquals("1", LedgerRows.event(db.dataSource(), "webxml", "evt_webxml").orElseThrow().get("secret_id"));
      HttpResponse<String> outside = TestHttp.send(HttpRequest.newBuilder(server.uri("/api/x"))
          .POST(HttpRequest.BodyPublishers.ofString("body")).build());
      assertEquals("downstream POST /api/x: body", outside.body());
    }
  }

  @Test
  void missingSecretVariableIsNamedAndNoSecretIsEchoed() {
    ServletException e = assertThrows(ServletException.class, () -> init(
        Map.of("providers", "testhook"), Map.of("HOOKLEDGER_JDBC_URL", db.jdbcUrl())));
    assertEquals("hookledger filter 'hookledger': no secret for provider 'testhook': environment variable"
        + " HOOKLEDGER_TESTHOOK_SECRET is not set (set it, comma-separated for rotation, or name another with init-param"
        + " testhook.secret-env)", e.getMessage());
  }

  @Test
  void unknownInitParamIsRefusedWithTheKnownOnes() {
    ServletException e = assertThrows(ServletException.class, () -> init(
        Map.of("providers", "testhook", "provider", "testhook"), Map.of()));
    assertEquals("hookledger filter 'hookledger': unknown init-param 'provider' (known: batch-size, body-read-timeout,"
        + " connect-timeout, handler-timeout, handlers, idle-in-transaction-timeout, inline, jdbc-url, jdbc-url-env, lease,"
        + " ledger-writers, lock-timeout, max-in-flight-body-bytes, mode, outbox-poll-interval, outbox-workers, path-prefix, poll-interval, providers,"
        + " receive-queue-capacity, retry.factor, retry.first-delay, retry.jitter, retry.max-attempts, retry.max-delay,"
        + " schema, session-timeouts-from-pool, shutdown-timeout, socket-timeout, statement-timeout, workers, and per listed"
        + " provider <id>.secret-env, <id>.max-body-bytes)", e.getMessage());
  }

  @Test
  void bodyBudgetInitParamMustBeAPositiveWholeNumber() {
    ServletException e = assertThrows(ServletException.class, () -> init(
        Map.of("providers", "testhook", "max-in-flight-body-bytes", "lots"), Map.of("HOOKLEDGER_JDBC_URL", db.jdbcUrl())));
    assertEquals("hookledger filter 'hookledger': init-param max-in-flight-body-bytes: must be a number of bytes such as"
        + " 1048576, 512KB, 128MB or 1GB, but was 'lots'", e.getMessage());
    e = assertThrows(ServletException.class, () -> init(
        Map.of("providers", "testhook", "max-in-flight-body-bytes", "0"), Map.of("HOOKLEDGER_JDBC_URL", db.jdbcUrl())));
    assertEquals("hookledger filter 'hookledger': init-param max-in-flight-body-bytes: maxInFlightBodyBytes must be >= 1,"
        + " but was 0", e.getMessage());
  }

  @Test
  void bodyReadTimeoutInitParamMustBePositive() {
    ServletException e = assertThrows(ServletException.class, () -> init(
        Map.of("providers", "testhook", "body-read-timeout", "0s"),
        Map.of("HOOKLEDGER_JDBC_URL", db.jdbcUrl(), "HOOKLEDGER_TESTHOOK_SECRET", "s")));
    assertEquals("hookledger filter 'hookledger': init-param body-read-timeout: bodyReadTimeout must be positive, but"
        + " was PT0S", e.getMessage());
  }

  @Test
  void deadlinesAreReadAsDurationsAndABadOneIsNamed() {
    ServletException e = assertThrows(ServletException.class, () -> init(
        Map.of("providers", "testhook", "lock-timeout", "3 seconds"),
        Map.of("HOOKLEDGER_JDBC_URL", db.jdbcUrl(), "HOOKLEDGER_TESTHOOK_SECRET", "s")));
    assertEquals("hookledger filter 'hookledger': init-param lock-timeout: must be a duration such as 500ms, 30s, 5m, 2h,"
        + " 30d or PT30S, but was '3 seconds'", e.getMessage());
    ServletException tooShort = assertThrows(ServletException.class, () -> init(
        Map.of("providers", "testhook", "statement-timeout", "10s", "socket-timeout", "PT8S"),
        Map.of("HOOKLEDGER_JDBC_URL", db.jdbcUrl(), "HOOKLEDGER_TESTHOOK_SECRET", "s")));
    assertEquals("hookledger filter 'hookledger': socketTimeout (PT8S) must be longer than statementTimeout (PT10S), so"
        + " that the server cancels a slow statement before the socket gives up on it", tooShort.getMessage());
    ServletException negative = assertThrows(ServletException.class, () -> init(
        Map.of("providers", "testhook", "handler-timeout", "0ms"),
        Map.of("HOOKLEDGER_JDBC_URL", db.jdbcUrl(), "HOOKLEDGER_TESTHOOK_SECRET", "s")));
    assertEquals("hookledger filter 'hookledger': init-param handler-timeout: handlerTimeout must be >= 1 ms, but was"
        + " PT0S", negative.getMessage());
  }

  @Test
  void unknownProviderIdListsTheAdaptersFound() {
    ServletException e = assertThrows(ServletException.class, () -> init(
        Map.of("providers", "strpe"), Map.of("HOOKLEDGER_JDBC_URL", db.jdbcUrl(), "HOOKLEDGER_STRPE_SECRET", "s")));
    assertEquals("hookledger filter 'hookledger': no ProviderAdapter with id 'strpe' on the class path (found: standard, testhook);"
        + " add the provider's module, e.g. dev.hookledger:hookledger-strpe, or pass the adapter itself", e.getMessage());
  }

  @Test
  void missingHandlerClassIsNamedAndTheSecretIsNot() {
    ServletException e = assertThrows(ServletException.class, () -> init(
        Map.of("providers", "testhook", "handlers", "com.acme.Missing"),
        Map.of("HOOKLEDGER_JDBC_URL", db.jdbcUrl(), "HOOKLEDGER_TESTHOOK_SECRET", "super-secret-value")));
    assertEquals("hookledger filter 'hookledger': handler class 'com.acme.Missing' (init-param handlers) is not on the"
        + " class path", e.getMessage());
    assertFalse(String.valueOf(e.getCause()).contains("super-secret-value"));
  }

  private static void init(Map<String, String> params, Map<String, String> environment) throws ServletException {
    new WebhookFilter(environment::get).init(new FilterConfig() {
      @Override
      public String getFilterName() {
        return "hookledger";
      }

      @Override
      public ServletContext getServletContext() {
        throw new UnsupportedOperationException("not needed by the filter");
      }

      @Override
      public String getInitParameter(String name) {
        return params.get(name);
      }

      @Override
      public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(new HashMap<>(params).keySet());
      }
    });
  }

  /** A handler named in init-params: built by the filter with its no-argument constructor. */
  static final class Recorder {
    static final List<String> HANDLED = new CopyOnWriteArrayList<>();

    @OnEvent("*")
    void any(WebhookEvent event) {
      HANDLED.add(event.eventId());
    }
  }
}
