package dev.hookledger.runtime.admin.web;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.WebhookException;
import dev.hookledger.runtime.Health;
import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.AdminJson;
import dev.hookledger.runtime.admin.AdminText;
import dev.hookledger.runtime.admin.Backfill;
import dev.hookledger.runtime.admin.BackfillRequest;
import dev.hookledger.runtime.admin.CauseCount;
import dev.hookledger.runtime.admin.EffectDetail;
import dev.hookledger.runtime.admin.EffectJson;
import dev.hookledger.runtime.admin.EffectQuery;
import dev.hookledger.runtime.admin.EffectSelection;
import dev.hookledger.runtime.admin.EventDetail;
import dev.hookledger.runtime.admin.EventPage;
import dev.hookledger.runtime.admin.EventQuery;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.InboxStatus;
import dev.hookledger.runtime.admin.OperationRefusedException;
import dev.hookledger.runtime.admin.ReconcileReport;
import dev.hookledger.runtime.admin.ReplaySources;
import dev.hookledger.runtime.admin.RetrySelection;
import dev.hookledger.runtime.admin.StatusFilter;
import dev.hookledger.spi.ReplaySource;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An optional admin page over an {@link InboxAdmin}, for a person: summary counts with the
 * alarming ones highlighted (failing, stuck, dead, the oldest waiting event), the last hour's
 * activity, and the events (failing, stuck, dead, recent; filtered by provider, type and status;
 * paged), each on one line with its root cause and a retry button; one event in full on its own
 * page. Nothing is exposed unless the application registers it, and nothing is answered unless an
 * {@link AdminAuthorizer} permits the request:
 *
 * <pre>{@code
 * AdminAuthorizer auth = AdminAuthorizer.bearerToken(System.getenv("HOOKLEDGER_ADMIN_TOKEN"));
 * context.addServlet(new ServletHolder(new AdminServlet(runtime, auth)), "/admin/*");
 * }</pre>
 *
 * <p>Every route, the HTML pages included, asks the authorizer first: a request it refuses is
 * answered 401 (with its {@code WWW-Authenticate} challenges) and reads nothing. A servlet built
 * without an authorizer ({@link #AdminServlet(InboxAdmin)}) is closed: it answers every request 403.
 *
 * <p>Routes, relative to the mapping. Pages: {@code GET /} the overview (query parameters
 * {@code status} (a {@link StatusFilter} or {@code all}), {@code provider}, {@code type} (a type or
 * pattern such as {@code invoice.*}), {@code id} (an event id or delivery id, any provider), {@code after} (the next page's cursor); with
 * {@code Accept: application/json}, the status, failing and dead lists as JSON, plus the runtime's
 * {@link dev.hookledger.runtime.Health} when built over a runtime); {@code GET /event?provider=&scope=&eventId=}
 * one event; {@code GET /confirm-retry-dead} the confirmation of "retry all dead";
 * {@code GET /confirm-retry?status=failing|dead&provider=&type=&cause=} the confirmation of a bulk
 * retry of a {@link RetrySelection}, with its count; {@code GET /backfill} the form that starts a
 * backfill (handlers chosen from those registered, provider, type, window, legacy events, pace) and
 * {@code GET /confirm-backfill} with the form's parameters, its dry-run counts
 * ({@link InboxAdmin#planBackfill}) before anything starts; {@code GET /reconcile} the reconcile
 * form and, with {@code provider}, {@code since} and {@code until}, the report of
 * {@link InboxAdmin#reconcile} (as JSON with {@code Accept: application/json}), the provider's
 * source from {@link ReplaySources} (a provider without a listing API answers 409 with its reason).
 * JSON:
 * {@code GET /status.json}, {@code /failing.json}, {@code /dead.json}, {@code /events.json} (the
 * overview's parameters, plus {@code limit}), {@code /event.json?provider=&scope=&eventId=},
 * {@code /activity.json} (received and settled per minute, last hour), {@code /health.json} (with
 * this node's refused deliveries counted), {@code /refused.json} (this node's refused deliveries:
 * counts by provider and reason, the last 100 requests; built over a runtime only, as the health is).
 * Actions: {@code POST /retry} with form parameters {@code provider}, {@code scope} (empty if none)
 * and {@code eventId} (a dead event back to pending, or a failing one due now);
 * {@code POST /retry-dead} with {@code confirm}, the number of dead events the person was shown:
 * every dead event is retried if there are exactly that many, else nothing (409 with the count now);
 * {@code POST /retry-matching} with {@code status} ({@code failing} or {@code dead}), {@code provider},
 * {@code type}, {@code cause} and {@code confirm}: the selection's events, bound to the count likewise.
 * Each answers {@code {"retried": n, "message": "..."}}. {@code POST /start-backfill} with the
 * confirmation's parameters answers {@code {"backfill": id, "message": "..."}};
 * {@code POST /cancel-backfill} with {@code id} answers {@code {"cancelled": id, "message": "..."}},
 * 409 if that backfill is not running.
 *
 * <p>Actions are POST only and need the header {@value #GUARD_HEADER}{@code : 1}, else 403: a browser
 * does not let another site add a custom header to a cross-origin request without a CORS preflight,
 * which this servlet never approves, so a forged form post cannot retry anything. The page's
 * buttons send the header from a script allowed by a per-response Content-Security-Policy nonce;
 * scripts send it with {@code curl -H 'X-Hookledger-Admin: 1'}. A refused action answers 409 with
 * the reason, a bad parameter 400, a database failure 503. The pages load nothing from elsewhere and
 * are readable without JavaScript. Thread-safe.
 */
public class AdminServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(AdminServlet.class);

  /** The header a retry must carry, with value {@code 1}. */
  public static final String GUARD_HEADER = "X-Hookledger-Admin";

  /** Dead (and failing) events listed in {@code dead.json} ({@code failing.json}). */
  static final int DEAD_SHOWN = 100;

  /** Events per page of the overview. */
  static final int PAGE_SIZE = 50;

  private static final SecureRandom RANDOM = new SecureRandom();
  static final String CLOSED = "the admin servlet is closed: it was built without an AdminAuthorizer";
  static final String UNAUTHORIZED = "unauthorized: the admin pages need valid credentials";

  private final transient InboxAdmin admin;
  private final transient AdminAuthorizer authorizer;
  private final transient Supplier<Health> health;
  private final transient Supplier<RefusedDeliveries> refused;
  private final transient ReplaySources sources;

  /**
   * A closed admin page over {@code admin}: with no authorizer, every request is answered 403.
   * Use {@link #AdminServlet(InboxAdmin, AdminAuthorizer)}.
   */
  public AdminServlet(InboxAdmin admin) {
    this.admin = requireNonNull(admin, "admin");
    this.authorizer = null;
    this.health = null;
    this.refused = null;
    this.sources = null;
    log.warn("AdminServlet has no AdminAuthorizer: it refuses every request (403)");
  }

  /**
   * An admin page over {@code admin}, answering only the requests {@code authorizer} permits; its
   * reconcile reads the providers' API settings from the environment
   * ({@link ReplaySources#fromEnvironment()}).
   */
  public AdminServlet(InboxAdmin admin, AdminAuthorizer authorizer) {
    this(admin, authorizer, ReplaySources.fromEnvironment());
  }

  /**
   * An admin page over {@code admin}, answering only the requests {@code authorizer} permits, whose
   * reconcile gets each provider's source from {@code sources}.
   */
  public AdminServlet(InboxAdmin admin, AdminAuthorizer authorizer, ReplaySources sources) {
    this.admin = requireNonNull(admin, "admin");
    this.authorizer = requireNonNull(authorizer, "authorizer");
    this.health = null;
    this.refused = null;
    this.sources = requireNonNull(sources, "sources");
  }

  /**
   * An admin page over {@code runtime}'s ledger ({@link WebhookRuntime#admin()}) that also shows its
   * {@link WebhookRuntime#health()}, answering only the requests {@code authorizer} permits.
   */
  public AdminServlet(WebhookRuntime runtime, AdminAuthorizer authorizer) {
    this(runtime, authorizer, ReplaySources.fromEnvironment());
  }

  /**
   * As {@link #AdminServlet(WebhookRuntime, AdminAuthorizer)}, its reconcile getting each provider's
   * source from {@code sources}.
   */
  public AdminServlet(WebhookRuntime runtime, AdminAuthorizer authorizer, ReplaySources sources) {
    requireNonNull(runtime, "runtime");
    this.admin = runtime.admin();
    this.authorizer = requireNonNull(authorizer, "authorizer");
    this.health = runtime::health;
    this.refused = runtime::refusedDeliveries;
    this.sources = requireNonNull(sources, "sources");
  }

  /**
   * Checks the authorizer before any route: the page, the JSON and the retries alike. A failure no
   * route expected is logged and answered 500, as a page to a browser, never as a stack trace.
   */
  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
    secureHeaders(resp);
    if (authorizer == null) {
      fail(req, resp, 403, "Closed", CLOSED, "Configure an AdminAuthorizer where the servlet is registered.");
      return;
    }
    if (!authorizer.permits(req)) {
      authorizer.challenges().forEach(c -> resp.addHeader("WWW-Authenticate", c));
      fail(req, resp, 401, "Unauthorized", UNAUTHORIZED, "Sign in with the admin token.");
      return;
    }
    try {
      super.service(req, resp);
    } catch (RuntimeException e) {
      log.error("admin page {} {} failed", req.getMethod(), route(req), e);
      if (!resp.isCommitted()) {
        resp.resetBuffer();
        fail(req, resp, 500, "The admin page failed", "the admin page failed with " + e.getClass().getSimpleName()
            + ": the server's log has the details", "Nothing more was done.");
      }
    }
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    try {
      switch (route(req)) {
        case "/status.json" -> json(resp, 200, AdminJson.status(admin.status()));
        case "/dead.json" -> json(resp, 200, AdminJson.page(listed(StatusFilter.DEAD)));
        case "/failing.json" -> json(resp, 200, AdminJson.page(listed(StatusFilter.FAILING)));
        case "/events.json" -> json(resp, 200, AdminJson.page(admin.list(query(req, param(req, "status"),
            intParam(req, "limit", EventQuery.DEFAULT_LIMIT)))));
        case "/event.json" -> {
          EventDetail d = detail(req);
          ObjectNode o = AdminJson.detail(d);
          o.set("effects", EffectJson.details(effectsOf(d)));
          json(resp, 200, o);
        }
        case "/destinations.json" -> json(resp, 200, JsonNodeFactory.instance.objectNode()
            .set("destinations", EffectJson.destinations(admin.outbox().destinations())));
        case "/effects.json" -> json(resp, 200, JsonNodeFactory.instance.objectNode()
            .set("effects", EffectJson.summaries(admin.outbox().list(effectQuery(req)))));
        case "/destinations" -> {
          String nonce = nonce(resp);
          html(resp, 200, EffectSection.destinations(admin.outbox().destinations(), Instant.now(), base(req), nonce));
        }
        case "/confirm-retry-effects" -> {
          String nonce = nonce(resp);
          EffectSelection selection = effectSelection(req);
          html(resp, 200, EffectSection.confirmRetry(selection, admin.outbox().retryCount(selection), Instant.now(),
              base(req), nonce));
        }
        case "/activity.json" -> json(resp, 200, AdminJson.throughput(admin.throughput()));
        case "/health.json" -> {
          if (health == null) {
            json(resp, 404, error("no health here: this admin servlet was built over an InboxAdmin, not a runtime"));
          } else {
            json(resp, 200, healthJson());
          }
        }
        case "/refused.json" -> {
          if (refused == null) {
            json(resp, 404, error("no refused deliveries here: this admin servlet was built over an InboxAdmin,"
                + " not a runtime"));
          } else {
            json(resp, 200, AdminJson.refused(refused.get()));
          }
        }
        case "/" -> page(req, resp);
        case "/event" -> {
          String nonce = nonce(resp);
          EventDetail d = detail(req);
          html(resp, 200, DetailPage.render(d, effectsOf(d), admin.status().asOf(), base(req), nonce));
        }
        case "/confirm-retry-dead" -> {
          String nonce = nonce(resp);
          InboxStatus status = admin.status();
          html(resp, 200, DetailPage.confirmRetryDead(status.dead(), status.asOf(), base(req), nonce));
        }
        case "/confirm-retry" -> {
          String nonce = nonce(resp);
          RetrySelection selection = selection(req);
          html(resp, 200, DetailPage.confirmRetry(selection, admin.retryCount(selection), admin.status().asOf(),
              base(req), nonce));
        }
        case "/backfill" -> {
          String nonce = nonce(resp);
          html(resp, 200, BackfillForm.form(admin.handlerNames(), Instant.now(), base(req), nonce));
        }
        case "/confirm-backfill" -> {
          String nonce = nonce(resp);
          Instant now = Instant.now();
          BackfillRequest request = BackfillForm.request(req, now);
          html(resp, 200, BackfillForm.confirm(request, admin.planBackfill(request), now, base(req), nonce));
        }
        case "/reconcile", "/reconcile.json" -> reconcile(req, resp);
        case "/retry", "/retry-dead", "/retry-matching", "/start-backfill", "/cancel-backfill", "/retry-effect",
            "/retry-effects", "/pause", "/resume" -> {
          resp.setHeader("Allow", "POST");
          json(resp, 405, error("actions are POST only"));
        }
        default -> fail(req, resp, 404, "Not found", "no such admin page: " + route(req), "The inbox is here:");
      }
    } catch (IllegalArgumentException e) {
      fail(req, resp, 400, "Bad request", e.getMessage(), "Check the address.");
    } catch (OperationRefusedException e) {
      fail(req, resp, 404, "Not found", e.getMessage(), "It may have been pruned, or the link is from another ledger.");
    } catch (LedgerUnavailableException e) {
      log.warn("admin page: {}", e.getMessage());
      if (wantsHtml(req)) {
        // a page, never raw JSON: a page left open keeps reloading until the ledger answers again
        String nonce = nonce(resp);
        html(resp, 503, AdminHtml.unavailable(base(req), e.getMessage(), Instant.now(), nonce));
      } else {
        json(resp, 503, error(e.getMessage()));
      }
    }
  }

  /** Whether the route answers with a page, and the request did not ask for JSON. */
  private static boolean wantsHtml(HttpServletRequest req) {
    String route = route(req);
    String accept = req.getHeader("Accept");
    return (route.equals("/") || route.equals("/event") || route.equals("/confirm-retry-dead")
        || route.equals("/confirm-retry") || route.equals("/backfill") || route.equals("/confirm-backfill")
        || route.equals("/reconcile") || route.equals("/destinations") || route.equals("/confirm-retry-effects"))
        && !(accept != null && accept.contains("application/json") && !accept.contains("text/html"));
  }

  /**
   * An error as a page to a browser (a request that accepts {@code text/html} for anything but a
   * {@code .json} route), else as {@code {"error": "..."}}: the same reason either way.
   */
  private static void fail(HttpServletRequest req, HttpServletResponse resp, int status, String heading, String message,
      String hint) throws IOException {
    String accept = req.getHeader("Accept");
    if (accept != null && accept.contains("text/html") && !route(req).endsWith(".json")) {
      html(resp, status, AdminHtml.problem(base(req), heading, message, hint, false, Instant.now(), nonce(resp)));
    } else {
      json(resp, status, error(message));
    }
  }

  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (!"1".equals(req.getHeader(GUARD_HEADER))) {
      String action = guardedAction(route(req));
      fail(req, resp, 403, "Refused", action + " needs the header " + GUARD_HEADER + ": 1 (cross-site request guard)",
          "The page's buttons send it with JavaScript on; nothing was changed.");
      return;
    }
    try {
      switch (route(req)) {
        case "/retry" -> retryOne(req, resp);
        case "/retry-dead" -> retryDead(req, resp);
        case "/retry-matching" -> retryMatching(req, resp);
        case "/start-backfill" -> startBackfill(req, resp);
        case "/cancel-backfill" -> cancelBackfill(req, resp);
        case "/retry-effect" -> {
          String key = param(req, "key");
          if (key == null) {
            throw new IllegalArgumentException("retry-effect needs the parameter key (and scope, where its event has one)");
          }
          String scope = req.getParameter("scope") == null ? "" : req.getParameter("scope");
          admin.outbox().retry(scope, key);
          json(resp, 200, JsonNodeFactory.instance.objectNode().put("retried", 1)
              .put("message", "retried effect " + key + ": pending, due now"));
        }
        case "/retry-effects" -> {
          EffectSelection selection = effectSelection(req);
          long confirmed;
          try {
            confirmed = Long.parseLong(param(req, "confirm") == null ? "" : param(req, "confirm"));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("retry-effects needs the parameter confirm, the number of effects to retry");
          }
          int retried = admin.outbox().retry(selection, confirmed);
          json(resp, 200, JsonNodeFactory.instance.objectNode().put("retried", retried)
              .put("message", "retried " + retried + " " + selection));
        }
        case "/pause", "/resume" -> {
          String destination = param(req, "destination");
          if (destination == null) {
            throw new IllegalArgumentException(route(req).substring(1) + " needs the parameter destination");
          }
          boolean pause = route(req).equals("/pause");
          boolean changed = pause ? admin.outbox().pause(destination) : admin.outbox().resume(destination);
          json(resp, 200, JsonNodeFactory.instance.objectNode().put("changed", changed)
              .put("message", destination + (pause ? (changed ? " paused: its effects wait until resumed" : " was paused already")
                  : (changed ? " resumed" : " was not paused"))));
        }
        default -> json(resp, 404, error("no such admin action: " + route(req)));
      }
    } catch (IllegalArgumentException e) {
      fail(req, resp, 400, "Bad request", e.getMessage() + ": nothing was changed", "Check the form.");
    } catch (OperationRefusedException e) {
      fail(req, resp, 409, "Refused", e.getMessage(), "Nothing was changed.");
    } catch (LedgerUnavailableException e) {
      log.warn("admin action: {}", e.getMessage());
      fail(req, resp, 503, "The ledger cannot be written right now", e.getMessage(), "Nothing was changed.");
    }
  }

  /** What a POST to {@code route} does, as the guard's refusal names it. */
  private static String guardedAction(String route) {
    return switch (route) {
      case "/start-backfill" -> "starting a backfill";
      case "/cancel-backfill" -> "cancelling a backfill";
      case "/retry", "/retry-dead", "/retry-matching", "/retry-effect", "/retry-effects" -> "a retry";
      case "/pause", "/resume" -> "pausing or resuming a destination";
      default -> "an admin action";
    };
  }

  /** The effects of an event shown, read by its key. */
  private List<EffectDetail> effectsOf(EventDetail d) {
    EventSummary s = d.summary();
    return admin.outbox().effectsOf(s.provider(), s.scope(), s.eventId());
  }

  private static EffectQuery effectQuery(HttpServletRequest req) {
    String status = param(req, "status");
    return EffectQuery.all().destination(param(req, "destination")).cause(param(req, "cause"))
        .status(status == null ? null : EffectQuery.parseStatus(status))
        .limit(intParam(req, "limit", 50));
  }

  private static EffectSelection effectSelection(HttpServletRequest req) {
    String status = param(req, "status");
    return EffectSelection.of(RetrySelection.Group.parse(status == null ? "" : status))
        .destination(param(req, "destination")).cause(param(req, "cause"));
  }

  private void retryOne(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String provider = req.getParameter("provider");
    String eventId = req.getParameter("eventId");
    String scope = req.getParameter("scope") == null ? "" : req.getParameter("scope");
    if (provider == null || provider.isEmpty() || eventId == null || eventId.isEmpty()) {
      json(resp, 400, error("a retry needs the parameters provider and eventId (and scope, where the event has one)"));
      return;
    }
    admin.retry(provider, scope, eventId);
    json(resp, 200, JsonNodeFactory.instance.objectNode().put("retried", 1)
        .put("message", "retried " + provider + " event " + eventId + (scope.isEmpty() ? "" : " (scope " + scope + ")")
            + ": pending, due now"));
  }

  private void retryDead(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String confirm = req.getParameter("confirm");
    long dead;
    try {
      dead = Long.parseLong(confirm == null ? "" : confirm.trim());
    } catch (NumberFormatException e) {
      long now = admin.backlog().dead();
      json(resp, 400, error("retry-dead needs the parameter confirm, the number of dead events to retry (now "
          + now + "): nothing was retried").put("dead", now));
      return;
    }
    int retried = admin.retryDead(dead);
    json(resp, 200, JsonNodeFactory.instance.objectNode().put("retried", retried)
        .put("message", "retried " + retried + " dead events: pending, due now"));
  }

  private void retryMatching(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    RetrySelection selection;
    long confirmed;
    try {
      selection = selection(req);
      confirmed = Long.parseLong(param(req, "confirm") == null ? "" : param(req, "confirm"));
    } catch (IllegalArgumentException e) {
      json(resp, 400, error("retry-matching needs the parameters status (failing or dead) and confirm, the number of"
          + " events to retry, and may narrow by provider, type and cause: nothing was retried"
          + (e instanceof NumberFormatException ? "" : " (" + e.getMessage() + ")")));
      return;
    }
    int retried = admin.retry(selection, confirmed);
    json(resp, 200, JsonNodeFactory.instance.objectNode().put("retried", retried)
        .put("message", "retried " + retried + " " + selection + ": "
            + (selection.group() == RetrySelection.Group.DEAD ? "pending, due now" : "due now")));
  }

  private void startBackfill(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    Backfill b = admin.startBackfill(BackfillForm.request(req, Instant.now()));
    json(resp, 200, JsonNodeFactory.instance.objectNode().put("backfill", b.id())
        .put("message", "backfill " + b.id() + " started: " + String.join(", ", b.handlers()) + " over "
            + b.selected() + " events; progress below"));
  }

  private void cancelBackfill(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    long id = intParam(req, "id", -1);
    if (id < 0) {
      json(resp, 400, error("cancel-backfill needs the parameter id, the backfill's number: nothing was cancelled"));
    } else if (admin.cancelBackfill(id)) {
      json(resp, 200, JsonNodeFactory.instance.objectNode().put("cancelled", id)
          .put("message", "backfill " + id + " cancelled: what it applied stays applied"));
    } else {
      fail(req, resp, 409, "Refused", "backfill " + id + " is not running: nothing was cancelled", "Nothing was changed.");
    }
  }

  /**
   * The reconcile form, or with {@code provider} the report (as a page, or JSON for a JSON client). A
   * provider whose API cannot list its events is refused with its reason (409), as the command line
   * exits 2; the provider's API failing answers 502. Nothing is written either way.
   */
  private void reconcile(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String provider = param(req, "provider");
    boolean asJson = route(req).endsWith(".json") || !wantsHtml(req);
    if (provider == null && !asJson) {
      String nonce = nonce(resp);
      html(resp, 200, ReconcilePage.form(sources.providers(), Instant.now(), base(req), nonce));
      return;
    }
    Instant now = Instant.now();
    if (provider == null || param(req, "since") == null) {
      throw new IllegalArgumentException("a reconcile needs the parameters provider and since (and until, default now)");
    }
    Instant since = AdminText.when("since", param(req, "since"), now);
    Instant asked = param(req, "until") == null ? now : AdminText.when("until", param(req, "until"), now);
    // a page holds both sides of its window in memory: a long window is reconciled a page at a time
    Instant until = asked.isAfter(since.plus(ReconcilePage.MAX_WINDOW)) ? since.plus(ReconcilePage.MAX_WINDOW) : asked;
    ReconcileReport report;
    try {
      ReplaySource source = sources.create(provider);
      report = admin.reconcile(source, since, until);
    } catch (UnsupportedOperationException e) {
      fail(req, resp, 409, "Cannot reconcile " + provider, provider + " cannot be reconciled: " + e.getMessage(),
          "Nothing was read or written.");
      return;
    } catch (LedgerUnavailableException e) {
      throw e;
    } catch (WebhookException e) {
      log.warn("admin reconcile of {}: {}", provider, e.getMessage());
      fail(req, resp, 502, "The provider's API failed", provider + "'s API failed: " + e.getMessage(),
          "Nothing was written; try again.");
      return;
    }
    Optional<Instant> next = until.isBefore(asked) ? Optional.of(asked) : Optional.empty();
    if (asJson) {
      ObjectNode body = AdminJson.reconcile(report);
      next.ifPresent(rest -> body.putObject("next").put("since", until.toString()).put("until", rest.toString()));
      json(resp, 200, body);
    } else {
      String nonce = nonce(resp);
      html(resp, 200, ReconcilePage.report(report, next, now, base(req), nonce));
    }
  }

  /** The bulk retry's selection from {@code status}, {@code provider}, {@code type} and {@code cause}. */
  private static RetrySelection selection(HttpServletRequest req) {
    String status = param(req, "status");
    if (status == null) {
      throw new IllegalArgumentException("a bulk retry needs the parameter status: failing or dead");
    }
    return RetrySelection.of(RetrySelection.Group.parse(status))
        .provider(param(req, "provider")).type(param(req, "type")).cause(param(req, "cause"));
  }

  private void page(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    InboxStatus status = admin.status();
    String accept = req.getHeader("Accept");
    if (accept != null && accept.contains("application/json") && !accept.contains("text/html")) {
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      o.set("status", AdminJson.status(status));
      o.set("failing", AdminJson.page(listed(StatusFilter.FAILING)));
      o.set("dead", AdminJson.page(listed(StatusFilter.DEAD)));
      o.set("causes", AdminJson.causes(admin.causes()));
      if (health != null) {
        o.set("health", healthJson());
        o.set("refused", AdminJson.refused(refused.get()));
      }
      json(resp, 200, o);
      return;
    }
    String statusParam = param(req, "status");
    if (param(req, "id") != null) {
      // a search looks in every status: the form still carries the tab's, and an id is one event wherever it is
      statusParam = "all";
    }
    if (statusParam == null) {
      // the first question is what needs a person: show that first
      statusParam = status.failing() > 0 ? "failing" : status.stuck() > 0 ? "stuck" : status.dead() > 0 ? "dead" : "all";
    }
    AdminPage.Filters filters = new AdminPage.Filters(statusParam, param(req, "provider"), param(req, "type"),
        param(req, "id"), param(req, "after"));
    EventPage page = null;
    String problem = null;
    int code = 200;
    try {
      page = admin.list(query(req, statusParam, PAGE_SIZE));
    } catch (IllegalArgumentException e) {
      problem = e.getMessage();
      code = 400;
    }
    String nonce = nonce(resp);
    List<CauseCount> causes = status.failing() + status.dead() == 0 ? List.of() : admin.causes();
    html(resp, code, AdminPage.render(status, admin.refusedCounts(), refused == null ? null : refused.get(), causes,
        admin.throughput(), page, filters, problem, base(req), nonce, admin.backfills(), admin.afterCommitFailures()));
  }

  /** The runtime's health, with this node's refused deliveries counted (the ledger cannot show them). */
  private ObjectNode healthJson() {
    ObjectNode o = AdminJson.health(health.get());
    o.set("refused", AdminJson.refusedCounts(refused.get()));
    return o;
  }

  private EventQuery query(HttpServletRequest req, String status, int limit) {
    return EventQuery.builder()
        .status(status == null || status.equals("all") ? null : StatusFilter.parse(status))
        .provider(param(req, "provider")).type(param(req, "type")).id(param(req, "id")).after(param(req, "after"))
        .limit(limit).build();
  }

  private EventDetail detail(HttpServletRequest req) {
    String provider = param(req, "provider");
    String eventId = req.getParameter("eventId"); // exactly: a sender's id may end in a control character
    if (provider == null || eventId == null || eventId.isEmpty()) {
      throw new IllegalArgumentException("an event needs the parameters provider and eventId (and scope, where it has one)");
    }
    String scope = req.getParameter("scope") == null ? "" : req.getParameter("scope");
    return admin.showExisting(provider, scope, eventId);
  }

  /** A query parameter, null when absent or blank. */
  private static String param(HttpServletRequest req, String name) {
    String v = req.getParameter(name);
    return v == null || v.isBlank() ? null : v.trim();
  }

  private static int intParam(HttpServletRequest req, String name, int fallback) {
    String v = param(req, name);
    try {
      return v == null ? fallback : Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number, but was '" + v + "'");
    }
  }

  private static String base(HttpServletRequest req) {
    return req.getContextPath() + req.getServletPath();
  }

  /** A fresh nonce, set in this response's Content-Security-Policy: the page's one style and one script. */
  private static String nonce(HttpServletResponse resp) {
    byte[] nonceBytes = new byte[16];
    RANDOM.nextBytes(nonceBytes);
    String nonce = Base64.getEncoder().encodeToString(nonceBytes);
    resp.setHeader("Content-Security-Policy", "default-src 'none'; script-src 'nonce-" + nonce
        + "'; style-src 'nonce-" + nonce + "'; img-src 'self'; connect-src 'self'; form-action 'self';"
        + " base-uri 'none'; frame-ancestors 'none'");
    return nonce;
  }

  private static void html(HttpServletResponse resp, int status, String page) throws IOException {
    byte[] html = page.getBytes(StandardCharsets.UTF_8);
    resp.setStatus(status);
    resp.setContentType("text/html;charset=utf-8");
    resp.setContentLength(html.length);
    resp.getOutputStream().write(html);
  }

  private EventPage listed(StatusFilter filter) {
    return admin.list(EventQuery.builder().status(filter).limit(DEAD_SHOWN).build());
  }

  private static String route(HttpServletRequest req) {
    String path = req.getPathInfo();
    return path == null || path.isEmpty() ? "/" : path;
  }

  private static void secureHeaders(HttpServletResponse resp) {
    resp.setHeader("Cache-Control", "no-store");
    resp.setHeader("X-Content-Type-Options", "nosniff");
    resp.setHeader("X-Frame-Options", "DENY");
  }

  private static ObjectNode error(String message) {
    return JsonNodeFactory.instance.objectNode().put("error", message);
  }

  private static void json(HttpServletResponse resp, int status, JsonNode body) throws IOException {
    byte[] bytes = AdminJson.bytes(body);
    resp.setStatus(status);
    resp.setContentType("application/json");
    resp.setContentLength(bytes.length);
    resp.getOutputStream().write(bytes);
  }
}
