package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.EffectHandler;
import dev.hookledger.Secret;
import dev.hookledger.SecretResolver;
import dev.hookledger.Secrets;
import dev.hookledger.internal.Json;
import dev.hookledger.internal.UnusableSecrets;
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
import dev.hookledger.runtime.internal.settings.ReceiveSettings;
import dev.hookledger.runtime.internal.settings.RuntimeInternals;
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
import java.util.function.Consumer;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jooq.TransactionProvider;

/**
 * Configures a {@link WebhookRuntime}: obtained from {@link WebhookRuntime#builder()}, its defaults
 * the only defaults of every front door (web.xml, Spring properties, the command line, the
 * environment). Each setter checks its argument and names a bad value; {@link #build()} checks how
 * they fit together. Not thread-safe; build once.
 *
 * <p>The plain options come in groups, each an immutable value with its own builder, as the
 * configuration reference lists them: {@link #inbox(Inbox)}, {@link #deadlines(Deadlines)},
 * {@link #receive(Receive)} and {@link #outbox(OutboxSenders)}, beside {@link RetryPolicy} in the
 * inbox group. The flat setters of earlier versions ({@link #workers(int)}, {@link #lease(Duration)},
 * ...) remain as deprecated shortcuts that change one option of the group the builder holds, as
 * {@code inbox(i -> i.workers(4))} does. Between a group's calls the last call wins: a group value
 * ({@code inbox(Inbox)}) replaces all of its options, the defaults it holds included; a change
 * ({@code inbox(i -> ...)}) or a shortcut changes the options it sets and keeps the rest.
 *
 * <pre>{@code
 * WebhookRuntime runtime = WebhookRuntime.builder()
 *     .dataSource(dataSource)
 *     .provider(new StripeAdapter(), Secrets.fromEnvironment("STRIPE_WEBHOOK_SECRET"))
 *     .handlers(new Billing())
 *     .inbox(Inbox.builder().workers(4).retryPolicy(RetryPolicy.builder().maxAttempts(8).build()).build())
 *     .deadlines(Deadlines.builder().handlerTimeout(Duration.ofSeconds(10)).build())
 *     .build();
 * }</pre>
 *
 * <p>Until 0.1 this was the nested type {@code WebhookRuntime.Builder}; chained calls
 * ({@code WebhookRuntime.builder().handlers(h).build()}) read the same.
 */
public final class WebhookRuntimeBuilder {
  static {
    // the internal packages read what a builder holds, and a runtime's transactions, through this
    // handle, not through public API
    RuntimeInternals.install(new RuntimeInternals.Handle() {
      @Override
      public RuntimeSettings settings(WebhookRuntimeBuilder builder) {
        return builder.settings();
      }

      @Override
      public TransactionProvider transactions(WebhookRuntime runtime) {
        return runtime.transactionProvider;
      }
    });
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
  private Inbox inbox = Inbox.defaults();
  private Deadlines deadlines = Deadlines.defaults();
  private Receive receive = Receive.defaults();
  private OutboxSenders outbox = OutboxSenders.defaults();
  private TransactionProvider transactionProvider;
  private final Map<String, Destination> destinations = new LinkedHashMap<>();
  private final Map<Class<?>, EffectHandlerRegistration<?>> effectHandlers = new LinkedHashMap<>();
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
   * connections and commits on {@link #dataSource}; the {@linkplain #deadlines(Deadlines) deadlines}
   * (the statement timeout and the rest) are still set in each transaction, once the provider has begun it.
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
   * How the inbox workers process recorded events: their number, claims, leases, polls, the time
   * {@link WebhookRuntime#close()} waits, and the {@link RetryPolicy}; default {@link Inbox#defaults()}.
   *
   * <p>This replaces every option of the group, those {@code inbox} leaves at its defaults included:
   * an earlier {@link #inbox(Consumer)} (or a shortcut such as {@link #workers(int)}) is undone by it.
   * Between the group's calls the last call wins; to change some options and keep the rest, use
   * {@link #inbox(Consumer)}.
   */
  public WebhookRuntimeBuilder inbox(Inbox inbox) {
    this.inbox = requireNonNull(inbox, "inbox");
    return this;
  }

  /**
   * Changes the options of the inbox group that {@code change} sets, keeping the others as this
   * builder holds them (set before, or the defaults): {@code inbox(i -> i.workers(8))}. What a
   * front door (a Spring property, an init-param) set is kept unless {@code change} sets it too.
   *
   * @throws IllegalArgumentException as the {@link Inbox.Builder}'s setters, naming the bad value
   */
  public WebhookRuntimeBuilder inbox(Consumer<Inbox.Builder> change) {
    requireNonNull(change, "change");
    Inbox.Builder b = inbox.toBuilder();
    change.accept(b);
    this.inbox = b.build();
    return this;
  }

  /**
   * How long anything the runtime does may wait: handlers, statements, locks, idle transactions, and
   * the connect and socket timeouts of a pool built from {@link #jdbcUrl}; default
   * {@link Deadlines#defaults()}. How they fit together, and with the pool, is checked by
   * {@link #build()}.
   *
   * <p>This replaces every option of the group, as {@link #inbox(Inbox)} does its; to change some
   * options and keep the rest, use {@link #deadlines(Consumer)}.
   */
  public WebhookRuntimeBuilder deadlines(Deadlines deadlines) {
    this.deadlines = requireNonNull(deadlines, "deadlines");
    return this;
  }

  /**
   * Changes the options of the deadlines group that {@code change} sets, keeping the others as this
   * builder holds them: {@code deadlines(d -> d.handlerTimeout(Duration.ofSeconds(10)))}.
   *
   * @throws IllegalArgumentException as the {@link Deadlines.Builder}'s setters, naming the bad value
   */
  public WebhookRuntimeBuilder deadlines(Consumer<Deadlines.Builder> change) {
    requireNonNull(change, "change");
    Deadlines.Builder b = deadlines.toBuilder();
    change.accept(b);
    this.deadlines = b.build();
    return this;
  }

  /**
   * How deliveries are taken in: the ledger writers, the deliveries that may wait for them, the body
   * bytes held at once and the time a body may take; default {@link Receive#defaults()}. Each
   * provider's body limit is set apart, with {@link #maxBodyBytes(String, int)}.
   *
   * <p>This replaces every option of the group, as {@link #inbox(Inbox)} does its; to change some
   * options and keep the rest, use {@link #receive(Consumer)}.
   */
  public WebhookRuntimeBuilder receive(Receive receive) {
    this.receive = requireNonNull(receive, "receive");
    return this;
  }

  /**
   * Changes the options of the receive group that {@code change} sets, keeping the others as this
   * builder holds them: {@code receive(r -> r.ledgerWriters(4))}.
   *
   * @throws IllegalArgumentException as the {@link Receive.Builder}'s setters, naming the bad value
   */
  public WebhookRuntimeBuilder receive(Consumer<Receive.Builder> change) {
    requireNonNull(change, "change");
    Receive.Builder b = receive.toBuilder();
    change.accept(b);
    this.receive = b.build();
    return this;
  }

  /**
   * How the outbox's effects are sent from this node: its sender threads and their poll; default
   * {@link OutboxSenders#defaults()}. Where effects go is said with {@link #destination} and
   * {@link #effectHandler}.
   *
   * <p>This replaces both options, as {@link #inbox(Inbox)} does its group's; to change one and keep
   * the other, use {@link #outbox(Consumer)}.
   */
  public WebhookRuntimeBuilder outbox(OutboxSenders outbox) {
    this.outbox = requireNonNull(outbox, "outbox");
    return this;
  }

  /**
   * Changes the options of the outbox senders that {@code change} sets, keeping the others as this
   * builder holds them: {@code outbox(o -> o.workers(0))}.
   *
   * @throws IllegalArgumentException as the {@link OutboxSenders.Builder}'s setters, naming the bad value
   */
  public WebhookRuntimeBuilder outbox(Consumer<OutboxSenders.Builder> change) {
    requireNonNull(change, "change");
    OutboxSenders.Builder b = outbox.toBuilder();
    change.accept(b);
    this.outbox = b.build();
    return this;
  }

  /**
   * Threads processing events, 0 to 256; default 2: a shortcut that changes this one option of the
   * {@link #inbox(Inbox)} group.
   *
   * @deprecated use {@link Inbox.Builder#workers(int)} through {@link #inbox(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder workers(int n) {
    return inbox(i -> i.workers(n));
  }

  /**
   * Events claimed at most by one claim, 1 to 1000; default 16: a shortcut that changes this one
   * option of the {@link #inbox(Inbox)} group.
   *
   * @deprecated use {@link Inbox.Builder#batchSize(int)} through {@link #inbox(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder batchSize(int n) {
    return inbox(i -> i.batchSize(n));
  }

  /**
   * How long a worker's claim on an event holds unless renewed, at least 1 s; default 30 s: a
   * shortcut that changes this one option of the {@link #inbox(Inbox)} group.
   *
   * @deprecated use {@link Inbox.Builder#lease(Duration)} through {@link #inbox(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder lease(Duration lease) {
    return inbox(i -> i.lease(lease));
  }

  /**
   * The mean time between the workers' polls, at least 10 ms; default 1 s: a shortcut that changes
   * this one option of the {@link #inbox(Inbox)} group.
   *
   * @deprecated use {@link Inbox.Builder#pollInterval(Duration)} through {@link #inbox(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder pollInterval(Duration interval) {
    return inbox(i -> i.pollInterval(interval));
  }

  /**
   * How long {@link WebhookRuntime#close()} waits for events in flight; default 30 s: a shortcut
   * that changes this one option of the {@link #inbox(Inbox)} group.
   *
   * @deprecated use {@link Inbox.Builder#shutdownTimeout(Duration)} through {@link #inbox(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder shutdownTimeout(Duration timeout) {
    return inbox(i -> i.shutdownTimeout(timeout));
  }

  /**
   * When failed events are tried again and when they are set {@code dead}; default
   * {@link RetryPolicy#defaults()}: a shortcut that changes this one option of the
   * {@link #inbox(Inbox)} group.
   *
   * @deprecated use {@link Inbox.Builder#retryPolicy(RetryPolicy)} through {@link #inbox(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder retryPolicy(RetryPolicy policy) {
    return inbox(i -> i.retryPolicy(policy));
  }

  /**
   * How long the {@code @OnEvent} methods of one attempt may run, at least 1 ms; default 30 s: a
   * shortcut that changes this one option of the {@link #deadlines(Deadlines)} group.
   *
   * @deprecated use {@link Deadlines.Builder#handlerTimeout(Duration)} through {@link #deadlines(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder handlerTimeout(Duration timeout) {
    return deadlines(d -> d.handlerTimeout(timeout));
  }

  /**
   * PostgreSQL's {@code statement_timeout} on the runtime's transactions; default 5 s: a shortcut
   * that changes this one option of the {@link #deadlines(Deadlines)} group.
   *
   * @deprecated use {@link Deadlines.Builder#statementTimeout(Duration)} through {@link #deadlines(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder statementTimeout(Duration timeout) {
    return deadlines(d -> d.statementTimeout(timeout));
  }

  /**
   * PostgreSQL's {@code lock_timeout} on the runtime's transactions; default 3 s: a shortcut that
   * changes this one option of the {@link #deadlines(Deadlines)} group.
   *
   * @deprecated use {@link Deadlines.Builder#lockTimeout(Duration)} through {@link #deadlines(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder lockTimeout(Duration timeout) {
    return deadlines(d -> d.lockTimeout(timeout));
  }

  /**
   * PostgreSQL's {@code idle_in_transaction_session_timeout} on the runtime's sessions; default 60 s:
   * a shortcut that changes this one option of the {@link #deadlines(Deadlines)} group.
   *
   * @deprecated use {@link Deadlines.Builder#idleInTransactionTimeout(Duration)} through {@link #deadlines(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder idleInTransactionTimeout(Duration timeout) {
    return deadlines(d -> d.idleInTransactionTimeout(timeout));
  }

  /**
   * The driver's TCP connect timeout of a pool built from {@link #jdbcUrl}; default 3 s: a shortcut
   * that changes this one option of the {@link #deadlines(Deadlines)} group.
   *
   * @deprecated use {@link Deadlines.Builder#connectTimeout(Duration)} through {@link #deadlines(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder connectTimeout(Duration timeout) {
    return deadlines(d -> d.connectTimeout(timeout));
  }

  /**
   * The driver's socket read timeout of a pool built from {@link #jdbcUrl}; default 6 s: a shortcut
   * that changes this one option of the {@link #deadlines(Deadlines)} group.
   *
   * @deprecated use {@link Deadlines.Builder#socketTimeout(Duration)} through {@link #deadlines(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder socketTimeout(Duration timeout) {
    return deadlines(d -> d.socketTimeout(timeout));
  }

  /**
   * Whether a {@link #dataSource}'s pool sets the session timeouts itself; default false: a shortcut
   * that changes this one option of the {@link #deadlines(Deadlines)} group.
   *
   * @deprecated use {@link Deadlines.Builder#sessionTimeoutsFromPool(boolean)} through {@link #deadlines(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder sessionTimeoutsFromPool(boolean fromPool) {
    return deadlines(d -> d.sessionTimeoutsFromPool(fromPool));
  }

  /**
   * Threads writing received deliveries to the ledger, 1 to 16; default 2: a shortcut that changes
   * this one option of the {@link #receive(Receive)} group.
   *
   * @deprecated use {@link Receive.Builder#ledgerWriters(int)} through {@link #receive(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder ledgerWriters(int n) {
    return receive(r -> r.ledgerWriters(n));
  }

  /**
   * Deliveries that may wait for a ledger writer at once, 1 to 100000; default 1024: a shortcut that
   * changes this one option of the {@link #receive(Receive)} group.
   *
   * @deprecated use {@link Receive.Builder#queueCapacity(int)} through {@link #receive(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder receiveQueueCapacity(int n) {
    return receive(r -> r.queueCapacity(n));
  }

  /**
   * The most request-body bytes held in memory at once, at least 1; default a quarter of the maximum
   * heap: a shortcut that changes this one option of the {@link #receive(Receive)} group.
   *
   * @deprecated use {@link Receive.Builder#maxInFlightBodyBytes(long)} through {@link #receive(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder maxInFlightBodyBytes(long bytes) {
    return receive(r -> r.maxInFlightBodyBytes(bytes));
  }

  /**
   * The total time one request body may take to arrive, positive; default 5 s: a shortcut that
   * changes this one option of the {@link #receive(Receive)} group.
   *
   * @deprecated use {@link Receive.Builder#bodyReadTimeout(Duration)} through {@link #receive(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder bodyReadTimeout(Duration timeout) {
    return receive(r -> r.bodyReadTimeout(timeout));
  }

  /**
   * Threads sending the outbox's effects on this node, 0 to 256; default 4: a shortcut that changes
   * this one option of the {@link #outbox(OutboxSenders)} group.
   *
   * @deprecated use {@link OutboxSenders.Builder#workers(int)} through {@link #outbox(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder outboxWorkers(int n) {
    return outbox(o -> o.workers(n));
  }

  /**
   * The mean time between the senders' polls, at least 10 ms; default 1 s: a shortcut that changes
   * this one option of the {@link #outbox(OutboxSenders)} group.
   *
   * @deprecated use {@link OutboxSenders.Builder#pollInterval(Duration)} through {@link #outbox(Consumer)}
   */
  @Deprecated
  public WebhookRuntimeBuilder outboxPollInterval(Duration interval) {
    return outbox(o -> o.pollInterval(interval));
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
    Deadlines d = deadlines;
    return new RuntimeSettings(schema, mode, inline, clock,
        new dev.hookledger.runtime.internal.Deadlines(d.handlerTimeout(), d.statementTimeout(), d.lockTimeout(),
            d.idleInTransactionTimeout(), d.connectTimeout(), d.socketTimeout(), d.sessionTimeoutsFromPool()),
        new InboxSettings(inbox.workers(), inbox.batchSize(), inbox.lease(), inbox.pollInterval(),
            inbox.shutdownTimeout(), inbox.retryPolicy(), InboxSettings.defaultMaxClaimBytes(), d.handlerTimeout()),
        new ReceiveSettings(receive.ledgerWriters(), receive.queueCapacity(), receive.maxInFlightBodyBytes(),
            receive.bodyReadTimeout(), maxBodyBytes),
        new OutboxSettings(outbox.workers(), outbox.pollInterval(), destinations,
            List.copyOf(effectHandlers.values())));
  }

  private void checkDeadlines() {
    Deadlines d = deadlines;
    if (d.sessionTimeoutsFromPool()) {
      if (jdbcUrl != null) {
        throw new IllegalArgumentException("sessionTimeoutsFromPool(true) is for an application's dataSource(...):"
            + " the pool built from jdbcUrl(...) sets the session timeouts on each connection itself");
      }
      Deadlines defaults = Deadlines.defaults();
      notSetWithPoolTimeouts("statementTimeout", d.statementTimeout(), defaults.statementTimeout(),
          "statement_timeout");
      notSetWithPoolTimeouts("lockTimeout", d.lockTimeout(), defaults.lockTimeout(), "lock_timeout");
      notSetWithPoolTimeouts("idleInTransactionTimeout", d.idleInTransactionTimeout(),
          defaults.idleInTransactionTimeout(), "idle_in_transaction_session_timeout");
    }
    if (jdbcUrl != null && !d.statementTimeout().isZero() && d.socketTimeout().compareTo(d.statementTimeout()) <= 0) {
      throw new IllegalArgumentException("socketTimeout (" + d.socketTimeout()
          + ") must be longer than statementTimeout (" + d.statementTimeout()
          + "), so that the server cancels a slow statement before the socket gives up on it");
    }
    if (!d.idleInTransactionTimeout().isZero() && d.idleInTransactionTimeout().compareTo(d.handlerTimeout()) <= 0) {
      throw new IllegalArgumentException("idleInTransactionTimeout (" + d.idleInTransactionTimeout()
          + ") must be longer than handlerTimeout (" + d.handlerTimeout() + "), so that the server never ends a"
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
