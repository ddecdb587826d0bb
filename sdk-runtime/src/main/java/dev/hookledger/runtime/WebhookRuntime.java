package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import dev.hookledger.InboundDelivery;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.runtime.admin.Backlog;
import dev.hookledger.runtime.admin.DestinationStatus;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.internal.assembly.Assembly;
import dev.hookledger.runtime.internal.door.Door;
import dev.hookledger.runtime.internal.inbox.PoolHealth;
import dev.hookledger.runtime.internal.servlet.BodyBudget;
import dev.hookledger.runtime.internal.settings.RuntimeSettings;
import dev.hookledger.spi.ReplaySink;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.jooq.TransactionProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives webhooks effectively once: verifies each delivery with its provider's adapter, records
 * it in the PostgreSQL ledger, and runs the matching {@link dev.hookledger.OnEvent} methods in the
 * transaction that settles the ledger row.
 *
 * <h2>Usage</h2>
 * <pre>{@code
 * WebhookRuntime runtime = WebhookRuntime.builder()
 *     .jdbcUrl("jdbc:postgresql://db:5432/app?user=app&password=...")   // or .dataSource(ds)
 *     .provider(new StripeAdapter(), Secrets.fromEnvironment("STRIPE_WEBHOOK_SECRET"))
 *     .provider("github", Secrets.fromEnvironment("GITHUB_WEBHOOK_SECRET"))  // found by ServiceLoader
 *     .handlers(new Billing(), new Issues())
 *     .build();                 // validates everything, including every @OnEvent method
 * runtime.migrate();            // creates the ledger schema if needed; safe from several processes
 * runtime.start();              // starts the workers, which also take what waits in the ledger
 * servletContext.addFilter("hookledger", new WebhookFilter(runtime))
 *     .addMappingForUrlPatterns(null, false, "/*");
 * ...
 * runtime.close();              // drains the workers; closes the pool it created
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@link #receive} answers only once the event's row is committed, so a 200 never loses an
 *       event; a duplicate (same provider, scope and event id) changes nothing and runs nothing.
 *   <li>In {@link ProcessingMode#STORE_FIRST} (the default) the handlers run on a worker after the
 *       answer, each event at most once per effect: workers claim events as leases, and a worker
 *       whose lease was taken over commits nothing. A failing handler rolls its transaction back
 *       and the event is tried again by the {@link RetryPolicy}, then set {@code dead}. In
 *       {@link ProcessingMode#INLINE} they run in the request's transaction and a failure answers
 *       500 (see {@link ProcessingMode}).
 *   <li>Any number of runtimes, in any number of processes, may share one ledger: each processes
 *       what it receives at once, and what waits (failures due again, events of runtimes that
 *       stopped, of runtimes with {@code workers(0)}) is claimed by any of them, woken by
 *       PostgreSQL {@code LISTEN/NOTIFY} and by a poll.
 *   <li>Lifecycle: {@code build → [migrate] → start → close}. {@link #receive} works between
 *       {@link #start} and {@link #close}; {@link #close} is idempotent.
 * </ul>
 *
 * <p>Thread-safe; one instance serves every request. Configuration is immutable once built.
 */
public final class WebhookRuntime implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WebhookRuntime.class);

  private enum State { NEW, STARTED, CLOSED }

  private final Assembly assembly;
  /** The application's transactions, or null for jOOQ's own: for {@code RuntimeInternals}, through the builder. */
  final TransactionProvider transactionProvider;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private volatile InboxAdmin admin;

  WebhookRuntime(Assembly assembly, TransactionProvider transactionProvider) {
    this.assembly = assembly;
    this.transactionProvider = transactionProvider;
  }

  /**
   * A builder with the defaults: schema {@code hookledger}, {@link ProcessingMode#STORE_FIRST}, 2
   * workers, {@link RetryPolicy#defaults()}, 30 s leases, polls every second.
   */
  public static WebhookRuntimeBuilder builder() {
    return new WebhookRuntimeBuilder();
  }

  /**
   * Creates the ledger schema, or brings it to the version this build needs, from the versioned
   * scripts in {@code db/hookledger/} ({@code V1__ledger.sql}, {@code V2__...}), each applied once, in
   * order. Idempotent, and safe to call from several processes at once (they serialize on an
   * advisory lock).
   *
   * @throws LedgerUnavailableException if the database cannot be reached or refuses the DDL
   * @throws IllegalStateException if the ledger is at a version newer than this build knows
   */
  public void migrate() {
    assembly.migrate();
  }

  /**
   * Starts the workers: they process what this runtime receives, and claim what waits in the ledger
   * (left by a previous run, due for a retry, recorded by another runtime) at once and then
   * whenever notified or polled, so that nothing stored is lost across a restart. Idempotent. With
   * {@code workers(0)} or in {@link ProcessingMode#SHADOW} no worker starts. If the database is down,
   * the workers keep polling (logged once); deliveries are answered 503 until it is back.
   *
   * @throws IllegalStateException if the runtime was closed, or if the ledger's schema is not the one
   *     this build needs: absent or older (run {@link #migrate()} first) or newer (upgrade hookledger)
   */
  public synchronized void start() {
    if (state.get() != State.NEW) {
      if (state.get() == State.CLOSED) {
        throw new IllegalStateException("WebhookRuntime is closed and cannot be started again");
      }
      return;
    }
    assembly.requireCurrentSchema();
    int workers = assembly.start();
    state.set(State.STARTED);
    log.info("hookledger started: schema '{}', mode {}, {} workers, lease owner '{}'", schema(), mode(), workers,
        assembly.owner());
  }

  /**
   * Stops receiving (later calls to {@link #receive} fail with {@link LedgerUnavailableException})
   * and claiming; gives back the events claimed but not started ({@code pending} again, due at once,
   * their attempt not counted, other runtimes notified); waits up to the
   * {@linkplain WebhookRuntimeBuilder#shutdownTimeout shutdown timeout} for the events in flight (one still running
   * then keeps its lease until it runs out, and commits nothing if another worker takes it over);
   * and closes the connection pool if this runtime created it. Idempotent. With the database gone it does
   * not wait out the pool's connection timeout: its own last writes (leases given back, this node's last
   * refusal counts) are given up after 3 s each, and the leases then run out as after a crash.
   */
  @Override
  public synchronized void close() {
    if (state.getAndSet(State.CLOSED) == State.CLOSED) {
      return;
    }
    assembly.close();
    log.info("hookledger stopped");
  }

  /**
   * Verifies, records and (by mode) processes one delivery: the engine of {@link WebhookFilter}, public
   * so that other frameworks can call it with the raw request.
   *
   * @param providerId the adapter id, e.g. {@code stripe}
   * @param delivery the request exactly as received
   * @return what was done; never null
   * @throws UnknownProviderException if no adapter has that id (answer 404)
   * @throws dev.hookledger.DeliveryRejectedException if verification refused it; nothing was stored
   *     (answer its {@link dev.hookledger.DeliveryRejectedException#httpStatus() status})
   * @throws LedgerUnavailableException if the ledger cannot record it, or the runtime is not running
   *     (answer 503 with {@code Retry-After}); nothing was stored
   * @throws HandlerFailedException in {@link ProcessingMode#INLINE} only: a handler failed and
   *     nothing was stored (answer 500, so that the provider redelivers)
   */
  public Receipt receive(String providerId, InboundDelivery delivery) {
    return receive(providerId, delivery, System.nanoTime());
  }

  /** As {@link #receive(String, InboundDelivery)}, for the door: the answer's bound runs from {@code arrivedNanos}. */
  Receipt receive(String providerId, InboundDelivery delivery, long arrivedNanos) {
    requireNonNull(providerId, "providerId");
    requireNonNull(delivery, "delivery");
    State s = state.get();
    if (s != State.STARTED) {
      throw new LedgerUnavailableException(s == State.NEW
          ? "WebhookRuntime is not started: call start() before receiving deliveries"
          : "WebhookRuntime is closed", null);
    }
    return assembly.receive(providerId, delivery, arrivedNanos);
  }

  /**
   * Where a {@link dev.hookledger.spi.ReplaySource} puts the events it fetched: each is recorded
   * through the receive path's ledger writer with source {@code replay} and no secret id, skipped if
   * the ledger already has it, and processed like a received one: by this runtime's workers once it
   * is started, or by those of any runtime on the ledger (in {@link ProcessingMode#SHADOW} it waits
   * {@code pending}). Its {@link ReplaySink#alreadyReceived} answers from the ledger. A new sink each
   * call; thread-safe.
   */
  public ReplaySink replaySink() {
    return assembly.replaySink();
  }

  /**
   * The operator's view of this runtime's ledger: an {@link InboxAdmin} over the same data source,
   * schema and clock, counting attempts of this runtime's {@link RetryPolicy#maxAttempts()}
   * ({@code status}, {@code list}, {@code show}, {@code retry}, {@code prune}, {@code migrate},
   * {@code replay}). Replayed events wait {@code pending} for the workers. Works in any lifecycle
   * state; never null.
   */
  public InboxAdmin admin() {
    InboxAdmin a = admin;
    if (a == null) {
      // built once: a load balancer polls health(), which reads the backlog through it
      RuntimeSettings s = assembly.settings();
      a = InboxAdmin.builder(dataSource()).schema(s.schema()).clock(s.clock())
          .maxAttempts(s.retryPolicy().maxAttempts()).handlers(assembly.handlerNames())
          .destinations(s.outbox().destinations().values()).build();
      admin = a;
    }
    return a;
  }

  /**
   * Whether this node can receive and process right now: its lifecycle, worker threads, notification
   * listener, and one read of the ledger (reachable? how much waits, how old, how much is stuck or
   * dead), through the partial indexes only, so it is cheap enough for a load balancer's poll (see
   * {@link dev.hookledger.runtime.admin.HealthServlet}). Answers within the admin's read deadline
   * (2 s) whatever the database does: a database that does not answer by then is unreachable.
   * Never throws; never null.
   */
  public Health health() {
    boolean running = state.get() == State.STARTED;
    PoolHealth threads = assembly.threads();
    Backlog backlog;
    boolean reachable = true;
    String problem = "";
    long deadEffects = 0;
    long openBreakers = 0;
    try {
      // within the admin's read deadline (2 s), whatever the database and the pool do
      backlog = admin().backlog();
      for (DestinationStatus d : admin().outbox().destinations()) {
        deadEffects += d.dead();
        openBreakers += d.breaker() == BreakerState.CLOSED ? 0 : 1;
      }
    } catch (LedgerUnavailableException e) {
      log.debug("health: the ledger is unreachable: {}", e.getMessage());
      backlog = new Backlog(0, 0, Duration.ZERO);
      reachable = false;
      problem = String.valueOf(e.getMessage());
    }
    return new Health(running, reachable, threads.workers(), threads.workersAlive(), threads.pollerAlive(),
        threads.listenerConnected(), threads.failuresSurvived(), backlog.waiting(), backlog.dead(),
        backlog.oldestWaitingAge(), backlog.stuck(), problem, deadEffects, openBreakers);
  }

  /** The ledger's data source: the one given, or the pool built from the JDBC URL. */
  public DataSource dataSource() {
    return assembly.dataSource();
  }

  /** The ledger's schema name; never null. */
  public String schema() {
    return assembly.settings().schema();
  }

  /** The processing mode configured for all types not listed in {@link WebhookRuntimeBuilder#inline}. */
  public ProcessingMode mode() {
    return assembly.settings().mode();
  }

  /** Deliveries waiting for a ledger writer now (tests hold the writer and watch requests queue). */
  int deliveriesWaitingForCommit() {
    return assembly.deliveriesWaitingForCommit();
  }

  /** The bound on body bytes held by this runtime's requests at once (tests watch what is reserved). */
  BodyBudget bodyBudget() {
    return assembly.bodyBudget();
  }

  /** What the servlet door needs besides {@link #receive}: the filter's one way into the assembly. */
  Door door() {
    return assembly;
  }

  /**
   * The deliveries this node's {@link WebhookFilter} refused since it was built: counts by
   * provider and reason and the last {@value RefusedDeliveries#RECENT} requests, from memory (no
   * ledger read, so it answers whatever the database does). Each node counts its own. Never null.
   */
  public RefusedDeliveries refusedDeliveries() {
    return assembly.refusedDeliveries();
  }
}
