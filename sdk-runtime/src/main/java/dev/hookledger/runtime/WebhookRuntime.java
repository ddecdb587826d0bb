package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.InboundDelivery;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.RejectionReason;
import dev.hookledger.SecretResolver;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.JdbcUrls;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.internal.Pools;
import dev.hookledger.runtime.internal.dispatch.Dispatcher;
import dev.hookledger.runtime.internal.dispatch.TypePattern;
import dev.hookledger.runtime.internal.listener.CompositeWebhookListener;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.Ledger;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.ledger.ProcessingRows;
import dev.hookledger.runtime.internal.ledger.SchemaMigrator;
import dev.hookledger.runtime.internal.process.EventProcessor;
import dev.hookledger.runtime.internal.process.LocalExecutor;
import dev.hookledger.runtime.internal.process.OrderingGuard;
import dev.hookledger.runtime.internal.receive.ModeSelector;
import dev.hookledger.runtime.internal.receive.ProviderDiscovery;
import dev.hookledger.runtime.internal.receive.ProviderRegistry;
import dev.hookledger.runtime.internal.receive.Receiver;
import dev.hookledger.spi.DeliveryChecks;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.ReplaySink;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
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
 *     .provider(new StripeAdapter(), Secrets.of(System.getenv("STRIPE_WEBHOOK_SECRET")))
 *     .provider("github", Secrets.of(System.getenv("GITHUB_WEBHOOK_SECRET")))  // found by ServiceLoader
 *     .handlers(new Billing(), new Issues())
 *     .build();                 // validates everything, including every @OnEvent method
 * runtime.migrate();            // creates the ledger schema if needed; safe from several processes
 * runtime.start();              // starts the workers and resumes events left pending
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
 *       answer; a failing handler rolls its transaction back and the row stays {@code pending}
 *       with {@code attempts} and {@code last_error} set. In {@link ProcessingMode#INLINE} they run
 *       in the request's transaction and a failure answers 500 (see {@link ProcessingMode}).
 *   <li>Lifecycle: {@code build → [migrate] → start → close}. {@link #receive} works between
 *       {@link #start} and {@link #close}; {@link #close} is idempotent.
 * </ul>
 *
 * <p>Thread-safe; one instance serves every request. Configuration is immutable once built.
 */
public final class WebhookRuntime implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WebhookRuntime.class);
  private static final Duration DRAIN = Duration.ofSeconds(30);

  private enum State { NEW, STARTED, CLOSED }

  private final DataSource dataSource;
  private final HikariDataSource ownedPool;
  private final String schema;
  private final ProcessingMode mode;
  private final int workers;
  private final Clock clock;
  private final DSLContext dsl;
  private final ProcessingRows rows;
  private final EventProcessor processor;
  private final Receiver receiver;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private volatile LocalExecutor executor;

  private WebhookRuntime(Builder b, ProviderRegistry providers, Dispatcher dispatcher, DataSource dataSource,
      HikariDataSource ownedPool) {
    this.dataSource = dataSource;
    this.ownedPool = ownedPool;
    this.schema = b.schema;
    this.mode = b.mode;
    this.workers = b.workers;
    this.clock = b.clock;
    this.dsl = LedgerDsl.on(dataSource);
    EventTable events = new EventTable(schema);
    // one listener or several, each call guarded: a listener cannot change an outcome
    WebhookListener listener = new CompositeWebhookListener(b.listeners);
    this.rows = new ProcessingRows(dsl, events);
    this.processor = new EventProcessor(dsl, rows, dispatcher, OrderingGuard.NONE, clock, listener);
    this.receiver = new Receiver(providers, new Ledger(dsl, events, clock), processor, this::handOff,
        new ModeSelector(mode, b.inline), clock, listener);
  }

  /** A builder with the defaults: schema {@code hookledger}, {@link ProcessingMode#STORE_FIRST}, 2 workers. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Creates or completes the ledger schema from {@code db/hookledger/V1__ledger.sql}. Idempotent,
   * and safe to call from several processes at once (they serialize on an advisory lock).
   *
   * @throws LedgerUnavailableException if the database cannot be reached or refuses the DDL
   */
  public void migrate() {
    SchemaMigrator.migrate(dsl, schema);
  }

  /**
   * Starts the local workers and hands them every event still {@code pending} from before, so that
   * nothing stored is lost across a restart. Idempotent. If the database is down, the pending
   * events wait for the next start (logged); deliveries are answered 503 until it is back.
   *
   * @throws IllegalStateException if the runtime was closed
   */
  public synchronized void start() {
    if (state.get() != State.NEW) {
      if (state.get() == State.CLOSED) {
        throw new IllegalStateException("WebhookRuntime is closed and cannot be started again");
      }
      return;
    }
    // the executor exists before receive() can see STARTED, so no accepted event misses it
    executor = new LocalExecutor(processor, workers);
    state.set(State.STARTED);
    log.info("hookledger started: schema '{}', mode {}, {} workers", schema, mode, workers);
    if (mode != ProcessingMode.SHADOW) {
      resumePending();
    }
  }

  /**
   * Stops receiving (later calls to {@link #receive} fail with {@link LedgerUnavailableException}),
   * waits up to 30 seconds for the workers to finish what they hold (what is left stays
   * {@code pending}), and closes the connection pool if this runtime created it. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (state.getAndSet(State.CLOSED) == State.CLOSED) {
      return;
    }
    LocalExecutor e = executor;
    if (e != null) {
      e.close(DRAIN);
    }
    if (ownedPool != null) {
      ownedPool.close();
    }
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
    requireNonNull(providerId, "providerId");
    requireNonNull(delivery, "delivery");
    State s = state.get();
    if (s != State.STARTED) {
      throw new LedgerUnavailableException(s == State.NEW
          ? "WebhookRuntime is not started: call start() before receiving deliveries"
          : "WebhookRuntime is closed", null);
    }
    return receiver.receive(providerId, delivery);
  }

  /**
   * Where a {@link dev.hookledger.spi.ReplaySource} puts the events it fetched: each is recorded
   * through the receive path's ledger writer with source {@code replay} and no secret id, skipped if
   * the ledger already has it, and processed like a received one once this runtime is started
   * (before that, and in {@link ProcessingMode#SHADOW}, it waits {@code pending}). Its
   * {@link ReplaySink#alreadyReceived} answers from the ledger. A new sink each call; thread-safe.
   */
  public ReplaySink replaySink() {
    return receiver.replayRecorder(mode != ProcessingMode.SHADOW);
  }

  /**
   * The operator's view of this runtime's ledger: an {@link InboxAdmin} over the same data source,
   * schema and clock ({@code status}, {@code list}, {@code show}, {@code retry}, {@code prune},
   * {@code migrate}, {@code replay}). Replayed events wait {@code pending} for the workers. Works in
   * any lifecycle state; never null.
   */
  public InboxAdmin admin() {
    return InboxAdmin.builder(dataSource).schema(schema).clock(clock).build();
  }

  /** The ledger's data source: the one given, or the pool built from the JDBC URL. */
  public DataSource dataSource() {
    return dataSource;
  }

  /** The ledger's schema name; never null. */
  public String schema() {
    return schema;
  }

  /** A jOOQ context on the ledger's data source (PostgreSQL dialect), for admin operations. */
  public DSLContext dsl() {
    return dsl;
  }

  /** The processing mode configured for all types not listed in {@link Builder#inline}. */
  public ProcessingMode mode() {
    return mode;
  }

  /** The body limit of a registered provider, in bytes. */
  int maxBodyBytes(String providerId) {
    return receiver.maxBodyBytes(providerId);
  }

  /** Tells the listener of a body the filter refused as too large before calling {@link #receive}. */
  void rejectedTooLarge(String providerId) {
    receiver.rejected(providerId, RejectionReason.TOO_LARGE);
  }

  private void handOff(EventKey key, WebhookEvent event) {
    LocalExecutor e = executor;
    if (e == null) {
      log.debug("{} stays pending until a runtime is started", key);
    } else {
      e.handOff(key, event);
    }
  }

  private void resumePending() {
    try {
      List<EventKey> pending = rows.waiting(clock.instant(), LocalExecutor.QUEUE_CAPACITY);
      if (!pending.isEmpty()) {
        log.info("resuming {} events left pending", pending.size());
      }
      pending.forEach(key -> executor.handOff(key, null));
    } catch (DataAccessException e) {
      log.warn("cannot read the events left pending, they wait for the next start: {}", LedgerErrors.describe(e));
    }
  }

  /**
   * Configures a {@link WebhookRuntime}. Each setter checks its argument and names a bad value;
   * {@link #build()} checks how they fit together. Not thread-safe; build once.
   */
  public static final class Builder {
    private static final Pattern PROVIDER_ID = Pattern.compile("[a-z0-9][a-z0-9_.-]*");

    private DataSource dataSource;
    private String jdbcUrl;
    private String user;
    private String password;
    private String schema = "hookledger";
    private final List<ProviderRegistry.Registration> providers = new ArrayList<>();
    private final Map<String, Integer> maxBodyBytes = new LinkedHashMap<>();
    private final List<Object> handlers = new ArrayList<>();
    private ProcessingMode mode = ProcessingMode.STORE_FIRST;
    private final List<TypePattern> inline = new ArrayList<>();
    private Clock clock = Clock.systemUTC();
    private final List<WebhookListener> listeners = new ArrayList<>();
    private int workers = 2;

    private Builder() {}

    /** The ledger's database, pooled by the caller (who also closes it). */
    public Builder dataSource(DataSource dataSource) {
      this.dataSource = requireNonNull(dataSource, "dataSource");
      return this;
    }

    /**
     * The ledger's database as a PostgreSQL JDBC URL (user and password may be URL parameters); the
     * runtime pools it with HikariCP (up to {@code workers + 8} connections, 5 s connection timeout)
     * and closes the pool in {@link WebhookRuntime#close()}.
     */
    public Builder jdbcUrl(String url) {
      requireNonNull(url, "jdbcUrl");
      if (!url.startsWith("jdbc:postgresql:")) {
        throw new IllegalArgumentException("jdbcUrl must start with 'jdbc:postgresql:', but was '"
            + JdbcUrls.mask(url) + "'");
      }
      this.jdbcUrl = url;
      return this;
    }

    /** As {@link #jdbcUrl(String)}, with the credentials apart from the URL. */
    public Builder jdbcUrl(String url, String user, String password) {
      jdbcUrl(url);
      this.user = requireNonNull(user, "user");
      this.password = requireNonNull(password, "password");
      return this;
    }

    /** The ledger's schema; default {@code hookledger}. A lower-case SQL identifier. */
    public Builder schema(String schema) {
      requireNonNull(schema, "schema");
      this.schema = EventTable.requireSchemaName(schema);
      return this;
    }

    /** Registers an adapter with the same secrets for every tenant. */
    public Builder provider(ProviderAdapter adapter, Secrets secrets) {
      requireNonNull(secrets, "secrets");
      return provider(adapter, SecretResolver.of(secrets));
    }

    /** Registers an adapter whose secrets are looked up per tenant (Stripe account, Shopify shop, GitHub hook). */
    public Builder provider(ProviderAdapter adapter, SecretResolver resolver) {
      requireNonNull(adapter, "adapter");
      requireNonNull(resolver, "resolver");
      String id = adapter.id();
      if (id == null || !PROVIDER_ID.matcher(id).matches()) {
        throw new IllegalArgumentException("provider id of " + adapter.getClass().getName()
            + " must be lower case ([a-z0-9][a-z0-9_.-]*), but was '" + id + "'");
      }
      providers.add(new ProviderRegistry.Registration(adapter, resolver, adapter.maxBodyBytes()));
      return this;
    }

    /**
     * Registers the adapter with this id found by {@link java.util.ServiceLoader} on the context
     * class loader.
     *
     * @throws IllegalArgumentException if none has that id, listing the ids found
     */
    public Builder provider(String id, Secrets secrets) {
      requireNonNull(id, "id");
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      return provider(ProviderDiscovery.find(id, loader != null ? loader : WebhookRuntime.class.getClassLoader()),
          secrets);
    }

    /** Adds handler instances, whose {@link dev.hookledger.OnEvent} methods are validated by {@link #build()}. */
    public Builder handlers(Object... handlerInstances) {
      requireNonNull(handlerInstances, "handlerInstances");
      for (int i = 0; i < handlerInstances.length; i++) {
        handlers.add(requireNonNull(handlerInstances[i], "handlerInstances[" + i + "]"));
      }
      return this;
    }

    /** When handlers run; default {@link ProcessingMode#STORE_FIRST}. */
    public Builder mode(ProcessingMode mode) {
      this.mode = requireNonNull(mode, "mode");
      return this;
    }

    /**
     * Runs the handlers of these types (or patterns, as in {@code @OnEvent}) {@link ProcessingMode#INLINE},
     * while other types stay {@link ProcessingMode#STORE_FIRST}.
     */
    public Builder inline(String... typePatterns) {
      requireNonNull(typePatterns, "typePatterns");
      for (String p : typePatterns) {
        try {
          inline.add(TypePattern.parse(p));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("inline: " + e.getMessage(), e);
        }
      }
      return this;
    }

    /** Overrides the adapter's {@link ProviderAdapter#maxBodyBytes()} for one provider. */
    public Builder maxBodyBytes(String provider, int bytes) {
      requireNonNull(provider, "provider");
      maxBodyBytes.put(provider, DeliveryChecks.requireBodyLimit(bytes));
      return this;
    }

    /** The clock for signed timestamps and ledger times; default {@link Clock#systemUTC()}. */
    public Builder clock(Clock clock) {
      this.clock = requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Adds a listener of each outcome (metrics, tracing); none by default. Several listeners are
     * called in the order they were added, as {@link WebhookListener#composite} does: one that
     * throws is logged and skipped, and cannot change an outcome.
     */
    public Builder listener(WebhookListener listener) {
      listeners.add(requireNonNull(listener, "listener"));
      return this;
    }

    /** Threads of the local executor; default 2. */
    public Builder workers(int n) {
      if (n < 1 || n > 256) {
        throw new IllegalArgumentException("workers must be between 1 and 256, but was " + n);
      }
      this.workers = n;
      return this;
    }

    /**
     * Checks the configuration as a whole and builds the runtime. Does not connect to the database.
     *
     * @throws IllegalArgumentException naming what does not fit
     * @throws dev.hookledger.HandlerRegistrationException naming the first bad {@code @OnEvent} method
     */
    public WebhookRuntime build() {
      if ((dataSource == null) == (jdbcUrl == null)) {
        throw new IllegalArgumentException(dataSource == null
            ? "no ledger database: set dataSource(...) or jdbcUrl(...)"
            : "set either dataSource(...) or jdbcUrl(...), not both");
      }
      if (providers.isEmpty()) {
        throw new IllegalArgumentException("no provider: register one with provider(...)");
      }
      if (!inline.isEmpty() && mode != ProcessingMode.STORE_FIRST) {
        throw new IllegalArgumentException("inline(" + inline + ") selects INLINE types within STORE_FIRST, "
            + "but mode is " + mode);
      }
      ProviderRegistry registry = ProviderRegistry.of(withBodyLimits());
      if (registry.ids().contains("github") && (mode == ProcessingMode.INLINE || !inline.isEmpty())) {
        log.warn("INLINE processing is configured and provider 'github' is registered: GitHub never redelivers"
            + " on its own, so a GitHub event whose INLINE handler fails is lost until redelivered by hand");
      }
      Dispatcher dispatcher = Dispatcher.of(handlers, registry.ids());
      if (dispatcher.size() == 0) {
        log.info("no @OnEvent handlers registered: every event will settle 'ignored'");
      }
      HikariDataSource pool = jdbcUrl == null ? null
          : Pools.create(jdbcUrl, user, password, workers + 8, "hookledger-" + schema);
      return new WebhookRuntime(this, registry, dispatcher, pool == null ? dataSource : pool, pool);
    }

    private List<ProviderRegistry.Registration> withBodyLimits() {
      Set<String> ids = new TreeSet<>();
      providers.forEach(p -> ids.add(p.adapter().id()));
      for (String id : maxBodyBytes.keySet()) {
        if (!ids.contains(id)) {
          throw new IllegalArgumentException("maxBodyBytes given for provider '" + id
              + "', which is not registered (registered: " + String.join(", ", ids) + ")");
        }
      }
      List<ProviderRegistry.Registration> out = new ArrayList<>();
      for (ProviderRegistry.Registration p : providers) {
        int limit = maxBodyBytes.getOrDefault(p.adapter().id(), p.maxBodyBytes());
        out.add(new ProviderRegistry.Registration(p.adapter(), p.secrets(), limit));
        log.info("provider '{}' registered: {}, body limit {} bytes", p.adapter().id(),
            p.adapter().getClass().getName(), limit);
      }
      return out;
    }
  }
}
