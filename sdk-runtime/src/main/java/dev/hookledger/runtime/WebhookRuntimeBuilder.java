package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.EffectHandler;
import dev.hookledger.Secret;
import dev.hookledger.SecretResolver;
import dev.hookledger.Secrets;
import dev.hookledger.internal.Json;
import dev.hookledger.internal.UnusableSecrets;
import dev.hookledger.runtime.internal.Deadlines;
import dev.hookledger.runtime.internal.JdbcUrls;
import dev.hookledger.runtime.internal.assembly.Assembly;
import dev.hookledger.runtime.internal.assembly.RuntimeParts;
import dev.hookledger.runtime.internal.dispatch.TypePattern;
import dev.hookledger.runtime.internal.inbox.InboxSettings;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.observe.EventTracing;
import dev.hookledger.runtime.internal.observe.MicrometerTracing;
import dev.hookledger.runtime.internal.outbox.EffectHandlerRegistration;
import dev.hookledger.runtime.internal.outbox.OutboxSettings;
import dev.hookledger.runtime.internal.receive.ProviderDiscovery;
import dev.hookledger.runtime.internal.receive.ProviderRegistry;
import dev.hookledger.runtime.internal.servlet.BodyBudget;
import dev.hookledger.runtime.internal.servlet.ReadDeadline;
import dev.hookledger.runtime.internal.settings.BuilderSettings;
import dev.hookledger.runtime.internal.settings.ReceiveSettings;
import dev.hookledger.runtime.internal.settings.RuntimeSettings;
import dev.hookledger.spi.DeliveryChecks;
import dev.hookledger.spi.ProviderAdapter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jooq.TransactionProvider;

/**
 * Configures a {@link WebhookRuntime}: obtained from {@link WebhookRuntime#builder()}, its defaults
 * the only defaults of every front door (web.xml, Spring properties, the command line, the
 * environment). Each setter checks its argument and names a bad value; {@link #build()} checks how
 * they fit together. Not thread-safe; build once.
 *
 * <p>Until 0.1 this was the nested type {@code WebhookRuntime.Builder}; chained calls
 * ({@code WebhookRuntime.builder().workers(4).build()}) read the same.
 */
public final class WebhookRuntimeBuilder {
  static {
    // the front doors read what a builder holds through this, not through public API
    BuilderSettings.install(WebhookRuntimeBuilder::settings);
  }

  private static final Pattern PROVIDER_ID = Pattern.compile("[a-z0-9][a-z0-9_.-]*");

  private DataSource dataSource;
  private String jdbcUrl;
  private String user;
  private String password;
  private String schema = "hookledger";
  private final List<ProviderRegistry.Registration> providers = new ArrayList<>();
  private final Map<String, Integer> maxBodyBytes = new LinkedHashMap<>();
  private final List<Object> handlers = new ArrayList<>();
  private ObjectMapper objectMapper = Json.MAPPER;
  private ProcessingMode mode = ProcessingMode.STORE_FIRST;
  private final List<TypePattern> inline = new ArrayList<>();
  private Clock clock = Clock.systemUTC();
  private final List<WebhookListener> listeners = new ArrayList<>();
  private EventTracing tracing = EventTracing.NONE;
  private int workers = 2;
  private int batchSize = 16;
  private Duration lease = Duration.ofSeconds(30);
  private Duration pollInterval = Duration.ofSeconds(1);
  private Duration shutdownTimeout = Duration.ofSeconds(30);
  private RetryPolicy retryPolicy = RetryPolicy.defaults();
  private Duration handlerTimeout = Deadlines.DEFAULT_HANDLER;
  private Duration statementTimeout = Deadlines.DEFAULT_STATEMENT;
  private Duration lockTimeout = Deadlines.DEFAULT_LOCK;
  private Duration idleInTransactionTimeout = Deadlines.DEFAULT_IDLE_IN_TRANSACTION;
  private Duration connectTimeout = Deadlines.DEFAULT_CONNECT;
  private Duration socketTimeout = Deadlines.DEFAULT_SOCKET;
  private boolean sessionTimeoutsFromPool;
  private int ledgerWriters = 2;
  private int receiveQueueCapacity = 1024;
  private long maxInFlightBodyBytes = BodyBudget.defaultCapacity();
  private Duration bodyReadTimeout = ReadDeadline.DEFAULT;
  private TransactionProvider transactionProvider;
  private final Map<String, Destination> destinations = new LinkedHashMap<>();
  private final Map<Class<?>, EffectHandlerRegistration<?>> effectHandlers = new LinkedHashMap<>();
  private int outboxWorkers = 4;
  private Duration outboxPollInterval = Duration.ofSeconds(1);
  private DataSource transactionalConnections;

  WebhookRuntimeBuilder() {}

  /** The ledger's database, pooled by the caller (who also closes it). */
  public WebhookRuntimeBuilder dataSource(DataSource dataSource) {
    this.dataSource = requireNonNull(dataSource, "dataSource");
    return this;
  }

  /**
   * The ledger's database as a PostgreSQL JDBC URL (user and password may be URL parameters); the
   * runtime pools it with HikariCP (up to {@code workers + 8} connections, 3 s connection timeout)
   * and closes the pool in {@link WebhookRuntime#close()}.
   */
  public WebhookRuntimeBuilder jdbcUrl(String url) {
    requireNonNull(url, "jdbcUrl");
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("jdbcUrl must start with 'jdbc:postgresql:', but was '"
          + JdbcUrls.mask(url) + "'");
    }
    this.jdbcUrl = url;
    return this;
  }

  /** As {@link #jdbcUrl(String)}, with the credentials apart from the URL. */
  public WebhookRuntimeBuilder jdbcUrl(String url, String user, String password) {
    jdbcUrl(url);
    this.user = requireNonNull(user, "user");
    this.password = requireNonNull(password, "password");
    return this;
  }

  /**
   * Makes the runtime's transactions on the ledger, the handlers' among them, transactions of the
   * application's own transaction manager, so that whatever else takes part in that manager's
   * transaction writes in the one that settles the ledger row, and commits or rolls back with it.
   * {@code provider} begins, commits and rolls back each of them (a handler's nested jOOQ
   * transaction too); every statement in them takes its connection from {@code connections}, which
   * must hand out the connection of the provider's current transaction on the calling thread, and a
   * plain connection outside one. The ledger's writes on the receive path keep their own
   * connections and commits on {@link #dataSource}; the deadlines ({@link #statementTimeout} and
   * the rest) are still set in each transaction, once the provider has begun it.
   *
   * <p>The Spring Boot integration ({@code dev.hookledger.runtime.spring}) passes a provider backed
   * by the application's {@code PlatformTransactionManager} and a {@code TransactionAwareDataSourceProxy}
   * over the application's {@code DataSource}, so that {@code JdbcTemplate}, JPA and
   * {@code @Transactional} services called by a handler join the ledger's transaction. Requires
   * {@link #dataSource}; by default the runtime's transactions are jOOQ's own, on a connection of
   * {@link #dataSource}.
   *
   * @param provider begins, commits and rolls back the runtime's transactions
   * @param connections hands out the connection of {@code provider}'s transaction on this thread
   */
  public WebhookRuntimeBuilder transactions(TransactionProvider provider, DataSource connections) {
    this.transactionProvider = requireNonNull(provider, "provider");
    this.transactionalConnections = requireNonNull(connections, "connections");
    return this;
  }

  /** The ledger's schema; default {@code hookledger}. A lower-case SQL identifier. */
  public WebhookRuntimeBuilder schema(String schema) {
    requireNonNull(schema, "schema");
    this.schema = EventTable.requireSchemaName(schema);
    return this;
  }

  /**
   * Registers an adapter with the same secrets for every tenant.
   *
   * @throws IllegalArgumentException naming the provider and secret id (never the value) if a
   *     secret cannot be real: an unresolved {@code ${...}} placeholder, a value published as an
   *     example, shorter than the provider's {@linkplain ProviderAdapter#minimumSecretLength()
   *     shortest secret}, or refused by the adapter's {@link ProviderAdapter#checkSecrets}
   */
  public WebhookRuntimeBuilder provider(ProviderAdapter adapter, Secrets secrets) {
    requireNonNull(adapter, "adapter");
    requireNonNull(secrets, "secrets");
    for (Secret secret : secrets.list()) {
      UnusableSecrets.refuse("secret '" + secret.id() + "' of provider '" + adapter.id() + "'",
          new String(secret.keyBytes(), StandardCharsets.UTF_8), adapter.minimumSecretLength());
    }
    adapter.checkSecrets(secrets);
    return provider(adapter, SecretResolver.of(secrets));
  }

  /** Registers an adapter whose secrets are looked up per tenant (Stripe account, Shopify shop, GitHub hook). */
  public WebhookRuntimeBuilder provider(ProviderAdapter adapter, SecretResolver resolver) {
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
  public WebhookRuntimeBuilder provider(String id, Secrets secrets) {
    requireNonNull(id, "id");
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return provider(ProviderDiscovery.find(id, loader != null ? loader : WebhookRuntime.class.getClassLoader()),
        secrets);
  }

  /** Adds handler instances, whose {@link dev.hookledger.OnEvent} methods are validated by {@link #build()}. */
  public WebhookRuntimeBuilder handlers(Object... handlerInstances) {
    requireNonNull(handlerInstances, "handlerInstances");
    for (int i = 0; i < handlerInstances.length; i++) {
      handlers.add(requireNonNull(handlerInstances[i], "handlerInstances[" + i + "]"));
    }
    return this;
  }

  /**
   * The mapper that turns payloads into the handlers' records and classes: the application's own, so
   * that its modules, naming strategy and annotations apply. Unknown properties are ignored whatever
   * it says (providers add fields in every API version); hookledger's own mapper by default.
   */
  public WebhookRuntimeBuilder objectMapper(ObjectMapper mapper) {
    this.objectMapper = requireNonNull(mapper, "mapper");
    return this;
  }

  /** When handlers run; default {@link ProcessingMode#STORE_FIRST}. */
  public WebhookRuntimeBuilder mode(ProcessingMode mode) {
    this.mode = requireNonNull(mode, "mode");
    return this;
  }

  /**
   * Runs the handlers of these types (or patterns, as in {@code @OnEvent}) {@link ProcessingMode#INLINE},
   * while other types stay {@link ProcessingMode#STORE_FIRST}.
   */
  public WebhookRuntimeBuilder inline(String... typePatterns) {
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
  public WebhookRuntimeBuilder maxBodyBytes(String provider, int bytes) {
    requireNonNull(provider, "provider");
    maxBodyBytes.put(provider, DeliveryChecks.requireBodyLimit(bytes));
    return this;
  }

  /**
   * The most request-body bytes held in memory at once, across every delivery being received. A
   * body reserves its bytes as they arrive (never what its {@code Content-Length} declares), and
   * one body may hold at most half of the budget; a delivery that does not fit is answered 503
   * with {@code Retry-After}, the same answer as any other overload, so that no burst of large or
   * slow posts can exhaust the heap or learn how much is left. At least 1; default a quarter of
   * the maximum heap ({@code -Xmx}), e.g. 128 MiB of 512 MiB. Keep it at least twice the largest
   * provider body limit, or such bodies are always answered 503.
   */
  public WebhookRuntimeBuilder maxInFlightBodyBytes(long bytes) {
    this.maxInFlightBodyBytes = BodyBudget.requireCapacity(bytes);
    return this;
  }

  /**
   * The total time one request body may take to arrive, from the first read to the last byte,
   * however slowly it trickles (a container's idle timeout never fires on a client that sends a
   * byte every few seconds). A body not read by then is answered 408 and its connection closed;
   * in SHADOW mode the request is passed on unrecorded. Positive; default 5 s, under the
   * providers' own timeouts (Shopify: 5 s for the whole request; GitHub: 10 s).
   */
  public WebhookRuntimeBuilder bodyReadTimeout(Duration timeout) {
    this.bodyReadTimeout = ReadDeadline.require(timeout);
    return this;
  }

  /**
   * The clock that judges signed timestamps (and the admin's ages); default {@link Clock#systemUTC()}.
   * Never used for leases, due times or ledger times: those are the database's, one clock for all nodes.
   */
  public WebhookRuntimeBuilder clock(Clock clock) {
    this.clock = requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Adds a listener of each outcome (metrics, tracing); none by default. Several listeners are
   * called in the order they were added, as {@link WebhookListener#composite} does: one that
   * throws is logged and skipped, and cannot change an outcome.
   */
  public WebhookRuntimeBuilder listener(WebhookListener listener) {
    listeners.add(requireNonNull(listener, "listener"));
    return this;
  }

  /**
   * Observes receiving, processing and each handler as Micrometer Observations in {@code registry}
   * ({@code hookledger.delivery.receive}, {@code hookledger.event.process}, {@code hookledger.handler.run}), so that a
   * tracing bridge (OpenTelemetry, Brave) makes them spans, and the handlers' own spans their children;
   * none by default. Needs {@code io.micrometer:micrometer-observation} on the class path (an optional
   * dependency of this artifact); the Spring starters pass the context's registry themselves.
   */
  public WebhookRuntimeBuilder observationRegistry(io.micrometer.observation.ObservationRegistry registry) {
    this.tracing = MicrometerTracing.of(requireNonNull(registry, "registry"));
    return this;
  }

  /**
   * Threads processing events, 0 to 256; default 2. With 0 the runtime only receives: it records
   * and acknowledges deliveries and notifies the workers of the other runtimes on the ledger.
   */
  public WebhookRuntimeBuilder workers(int n) {
    if (n < 0 || n > 256) {
      throw new IllegalArgumentException("workers must be between 0 and 256, but was " + n);
    }
    this.workers = n;
    return this;
  }

  /** Events claimed at most by one claim, 1 to 1000; default 16. */
  public WebhookRuntimeBuilder batchSize(int n) {
    if (n < 1 || n > 1000) {
      throw new IllegalArgumentException("batchSize must be between 1 and 1000, but was " + n);
    }
    this.batchSize = n;
    return this;
  }

  /**
   * How long a worker's claim on an event holds unless renewed, at least 1 s; default 30 s. A node
   * renews the leases of its running attempts every third of it (until their handler deadline), so
   * a lease runs out only under a worker that died, froze or lost the database: that long after, the
   * event is taken over by another, and the first worker's commit is refused. It need not exceed the
   * handlers' time.
   */
  public WebhookRuntimeBuilder lease(Duration lease) {
    requireNonNull(lease, "lease");
    if (lease.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("lease must be >= 1 s, but was " + lease);
    }
    this.lease = lease;
    return this;
  }

  /**
   * How often, on average, the workers look for waiting events when no notification wakes them,
   * at least 10 ms; default 1 s (each wait is drawn within ±20 % of it).
   */
  public WebhookRuntimeBuilder pollInterval(Duration interval) {
    requireNonNull(interval, "pollInterval");
    if (interval.toMillis() < 10) {
      throw new IllegalArgumentException("pollInterval must be >= 10 ms, but was " + interval);
    }
    this.pollInterval = interval;
    return this;
  }

  /**
   * Adds (or replaces, by name) a destination of the outbox's effects: the base URL of
   * {@code HttpEffect.to(name, path)}, or the settings of an {@link dev.hookledger.EffectHandler}
   * registered under that name. A destination no builder names has {@link Destination}'s defaults.
   */
  public WebhookRuntimeBuilder destination(Destination destination) {
    requireNonNull(destination, "destination");
    destinations.put(destination.name(), destination);
    return this;
  }

  /**
   * Registers the {@link dev.hookledger.EffectHandler} that delivers typed effects of class
   * {@code type} ({@code Outbox.send(name, effect)}) under the destination {@code destination}, whose
   * settings {@link #destination} may give. One handler per class: a second for the same class is
   * refused, naming both.
   */
  public <T> WebhookRuntimeBuilder effectHandler(String destination, Class<T> type,
      EffectHandler<? super T> handler) {
    requireNonNull(type, "type");
    requireNonNull(handler, "handler");
    String name = Destination.named(destination).name();
    EffectHandlerRegistration<?> taken = effectHandlers.get(type);
    if (taken != null) {
      throw new IllegalArgumentException("effectHandler: " + type.getName() + " already has one, "
          + taken.handler().getClass().getName() + " (destination '" + taken.destination() + "'); cannot add "
          + handler.getClass().getName() + " (destination '" + name + "')");
    }
    effectHandlers.put(type, new EffectHandlerRegistration<>(name, type, handler));
    return this;
  }

  /**
   * Threads sending the outbox's effects on this node, 0 to 256; default 4. With 0 the node enqueues
   * effects (in its handlers' transactions) and leaves their sending to the other nodes.
   */
  public WebhookRuntimeBuilder outboxWorkers(int n) {
    if (n < 0 || n > 256) {
      throw new IllegalArgumentException("outboxWorkers must be between 0 and 256, but was " + n);
    }
    this.outboxWorkers = n;
    return this;
  }

  /**
   * How often, on average, the senders look for due effects when nothing wakes them (a commit on
   * this node or a notification from another wakes them at once), at least 10 ms; default 1 s.
   */
  public WebhookRuntimeBuilder outboxPollInterval(Duration interval) {
    requireNonNull(interval, "outboxPollInterval");
    if (interval.toMillis() < 10) {
      throw new IllegalArgumentException("outboxPollInterval must be >= 10 ms, but was " + interval);
    }
    this.outboxPollInterval = interval;
    return this;
  }

  /** How long {@link WebhookRuntime#close()} waits for events in flight; default 30 s. */
  public WebhookRuntimeBuilder shutdownTimeout(Duration timeout) {
    requireNonNull(timeout, "shutdownTimeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("shutdownTimeout must not be negative, but was " + timeout);
    }
    this.shutdownTimeout = timeout;
    return this;
  }

  /**
   * Threads writing received deliveries to the ledger, 1 to 16; default 2. Each writes every
   * delivery waiting when its previous commit returns as one multi-row insert and one commit
   * (group commit: no timer, so a lone delivery pays one commit and nothing more). Two let one
   * batch fill while the other commits; more help only when commits are slow (a remote database).
   */
  public WebhookRuntimeBuilder ledgerWriters(int n) {
    if (n < 1 || n > 16) {
      throw new IllegalArgumentException("ledgerWriters must be between 1 and 16, but was " + n);
    }
    this.ledgerWriters = n;
    return this;
  }

  /**
   * Deliveries that may wait for a ledger writer at once, 1 to 100000; default 1024. When that
   * many wait, a new delivery is answered 503 with {@code Retry-After} at once instead of holding
   * a request thread: the database is not keeping up, and the provider retries later.
   */
  public WebhookRuntimeBuilder receiveQueueCapacity(int n) {
    if (n < 1 || n > 100_000) {
      throw new IllegalArgumentException("receiveQueueCapacity must be between 1 and 100000, but was " + n);
    }
    this.receiveQueueCapacity = n;
    return this;
  }

  /** When failed events are tried again and when they are set {@code dead}; default {@link RetryPolicy#defaults()}. */
  public WebhookRuntimeBuilder retryPolicy(RetryPolicy policy) {
    this.retryPolicy = requireNonNull(policy, "retryPolicy");
    return this;
  }

  /**
   * How long the {@code @OnEvent} methods of one attempt may run, at least 1 ms; default 30 s. At
   * the deadline the statement running is cancelled and the thread interrupted; the attempt fails,
   * its transaction rolls back, and the event is retried by the {@link RetryPolicy}. A handler that
   * ignores both keeps its worker busy, but no longer keeps its event: its lease stops being
   * renewed. 30 s is far beyond a sound handler (a few writes, a call or two to an API with its own
   * timeouts), and short enough that a hung one frees its locks within a minute. Must be shorter
   * than {@link #idleInTransactionTimeout}.
   */
  public WebhookRuntimeBuilder handlerTimeout(Duration timeout) {
    this.handlerTimeout = positive("handlerTimeout", timeout, Duration.ofMillis(1));
    return this;
  }

  /**
   * PostgreSQL's {@code statement_timeout} on the runtime's transactions, handlers' statements
   * included; default 5 s; {@link Duration#ZERO} turns it off. A statement running longer is
   * cancelled: on the receive path the delivery is answered 503 (the provider retries), in a worker
   * the attempt fails and is retried. 5 s is a hundred times what the ledger's statements take, and
   * Shopify gives up on a delivery after 5 s anyway. Must be shorter than {@link #socketTimeout}.
   */
  public WebhookRuntimeBuilder statementTimeout(Duration timeout) {
    this.statementTimeout = notNegative("statementTimeout", timeout);
    return this;
  }

  /**
   * PostgreSQL's {@code lock_timeout} on the runtime's transactions; default 3 s; {@link Duration#ZERO}
   * turns it off. A lock wait longer than this fails the statement: a worker queued behind another
   * transaction's lock on the same event or {@code entity_version} row (a hung handler's, say) fails
   * its attempt, which is retried with backoff, rather than hanging with it.
   */
  public WebhookRuntimeBuilder lockTimeout(Duration timeout) {
    this.lockTimeout = notNegative("lockTimeout", timeout);
    return this;
  }

  /**
   * PostgreSQL's {@code idle_in_transaction_session_timeout} on the runtime's sessions; default 60 s;
   * {@link Duration#ZERO} turns it off. The server ends a session that holds a transaction open
   * without a statement for longer (a handler stuck in a call outside the database that ignored its
   * deadline, a node frozen by a pause), which releases the locks it holds. Longer than
   * {@link #handlerTimeout}, so that it only ever ends what the handler deadline could not.
   */
  public WebhookRuntimeBuilder idleInTransactionTimeout(Duration timeout) {
    this.idleInTransactionTimeout = notNegative("idleInTransactionTimeout", timeout);
    return this;
  }

  /**
   * For a pool built from {@link #jdbcUrl}: the driver's TCP connect timeout, at least 1 s (whole
   * seconds, rounded up); default 3 s. The login as a whole is bounded by the pool's 3 s
   * connection timeout. Set it in your own pool's URL ({@code connectTimeout=3}) for a {@link #dataSource}.
   */
  public WebhookRuntimeBuilder connectTimeout(Duration timeout) {
    this.connectTimeout = positive("connectTimeout", timeout, Duration.ofSeconds(1));
    return this;
  }

  /**
   * For a pool built from {@link #jdbcUrl}: the driver's socket read timeout, at least 1 s (whole
   * seconds, rounded up); default 6 s. A database that stops answering, rather than refusing, fails
   * the statement after this long, so that a delivery is answered 503 with {@code Retry-After}
   * within 10 s (the pool's 3 s wait for a connection, then this; GitHub gives up on a delivery after
   * 10 s) instead of holding a request thread for minutes. Longer than {@link #statementTimeout}, so that a slow statement is cancelled by the
   * server, keeping its connection, before the socket gives up on it. Set it in your own pool's URL
   * ({@code socketTimeout=6}) for a {@link #dataSource}.
   */
  public WebhookRuntimeBuilder socketTimeout(Duration timeout) {
    this.socketTimeout = positive("socketTimeout", timeout, Duration.ofSeconds(1));
    return this;
  }

  /**
   * For a {@link #dataSource}: whether its connections already carry PostgreSQL's
   * {@code statement_timeout}, {@code lock_timeout} and {@code idle_in_transaction_session_timeout},
   * set by the application's pool when each connection opens (HikariCP's {@code connectionInitSql},
   * or the driver's {@code options=-c statement_timeout=5000 ...}); default false. When true, the
   * runtime no longer sets {@link #statementTimeout}, {@link #lockTimeout} and
   * {@link #idleInTransactionTimeout} at the start of each of its transactions ({@code SET LOCAL}, one
   * round trip per event), and refuses to be given them: the pool's values are the ones that hold,
   * so keep them bounded. The pool a runtime builds from a {@link #jdbcUrl} sets them on each
   * connection itself and never sends them per transaction.
   */
  public WebhookRuntimeBuilder sessionTimeoutsFromPool(boolean fromPool) {
    this.sessionTimeoutsFromPool = fromPool;
    return this;
  }

  private Deadlines deadlines() {
    return new Deadlines(handlerTimeout, statementTimeout, lockTimeout, idleInTransactionTimeout, connectTimeout,
        socketTimeout, sessionTimeoutsFromPool);
  }

  private static Duration positive(String name, Duration d, Duration min) {
    requireNonNull(d, name);
    if (d.compareTo(min) < 0) {
      throw new IllegalArgumentException(name + " must be >= " + min.toMillis() + " ms, but was " + d);
    }
    return d;
  }

  private static Duration notNegative(String name, Duration d) {
    requireNonNull(d, name);
    if (d.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative, but was " + d);
    }
    return d;
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
    if (transactionProvider != null && jdbcUrl != null) {
      throw new IllegalArgumentException("transactions(...) runs on the application's transaction manager and needs"
          + " its data source: set dataSource(...), not jdbcUrl(...)");
    }
    if (providers.isEmpty()) {
      throw new IllegalArgumentException("no provider: register one with provider(...)");
    }
    if (!inline.isEmpty() && mode != ProcessingMode.STORE_FIRST) {
      throw new IllegalArgumentException("inline(" + inline + ") selects INLINE types within STORE_FIRST, "
          + "but mode is " + mode);
    }
    checkDeadlines();
    Assembly assembly = Assembly.assemble(settings(), new RuntimeParts(dataSource, jdbcUrl, user, password, providers,
        handlers, objectMapper, new CompositeWebhookListener(listeners), transactionProvider, transactionalConnections,
        tracing));
    return new WebhookRuntime(assembly, transactionProvider);
  }

  /** What this builder was told, as one value; the only defaults are this builder's. */
  private RuntimeSettings settings() {
    return new RuntimeSettings(schema, mode, inline, clock, deadlines(),
        new InboxSettings(workers, batchSize, lease, pollInterval, shutdownTimeout, retryPolicy,
            InboxSettings.defaultMaxClaimBytes(), handlerTimeout),
        new ReceiveSettings(ledgerWriters, receiveQueueCapacity, maxInFlightBodyBytes, bodyReadTimeout, maxBodyBytes),
        new OutboxSettings(outboxWorkers, outboxPollInterval, destinations, List.copyOf(effectHandlers.values())));
  }

  private void checkDeadlines() {
    if (sessionTimeoutsFromPool) {
      if (jdbcUrl != null) {
        throw new IllegalArgumentException("sessionTimeoutsFromPool(true) is for an application's dataSource(...):"
            + " the pool built from jdbcUrl(...) sets the session timeouts on each connection itself");
      }
      Deadlines defaults = Deadlines.defaults();
      notSetWithPoolTimeouts("statementTimeout", statementTimeout, defaults.statement(), "statement_timeout");
      notSetWithPoolTimeouts("lockTimeout", lockTimeout, defaults.lock(), "lock_timeout");
      notSetWithPoolTimeouts("idleInTransactionTimeout", idleInTransactionTimeout, defaults.idleInTransaction(),
          "idle_in_transaction_session_timeout");
    }
    if (jdbcUrl != null && !statementTimeout.isZero() && socketTimeout.compareTo(statementTimeout) <= 0) {
      throw new IllegalArgumentException("socketTimeout (" + socketTimeout + ") must be longer than statementTimeout ("
          + statementTimeout + "), so that the server cancels a slow statement before the socket gives up on it");
    }
    if (!idleInTransactionTimeout.isZero() && idleInTransactionTimeout.compareTo(handlerTimeout) <= 0) {
      throw new IllegalArgumentException("idleInTransactionTimeout (" + idleInTransactionTimeout
          + ") must be longer than handlerTimeout (" + handlerTimeout + "), so that the server never ends a"
          + " transaction whose handler is within its time");
    }
  }

  private static void notSetWithPoolTimeouts(String name, Duration value, Duration defaultValue, String setting) {
    if (!value.equals(defaultValue)) {
      throw new IllegalArgumentException(name + " (" + value + ") is not applied with sessionTimeoutsFromPool(true):"
          + " set " + setting + " on the pool's connections instead");
    }
  }
}
