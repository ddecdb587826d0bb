package dev.hookledger.runtime.spring;

import dev.hookledger.runtime.ProcessingMode;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;

/**
 * The {@code hookledger.*} properties of a Spring Boot application, bound by
 * the starter's auto-configuration and checked when the application starts: a bad value fails the
 * start with a message naming the property. Each option of the runtime is the
 * {@link dev.hookledger.runtime.WebhookRuntimeBuilder} setting of the same name, read from the runtime's one
 * catalogue of settings (the table in docs/configuration.md); one left unset (null) keeps the builder's
 * default, which is the only default. The least an application sets:
 *
 * <pre>{@code
 * spring.datasource.url=jdbc:postgresql://db:5432/app
 * spring.datasource.username=app
 * hookledger.providers.<id>.secret=${WEBHOOK_SECRET}
 * }</pre>
 *
 * <p>Mutable, as Spring's binding requires; read once, when the runtime is built.
 */
@ConfigurationProperties(prefix = "hookledger")
public class HookledgerProperties {
  /** Filled by Spring's binder from the {@code hookledger.*} properties. */
  public HookledgerProperties() {}

  /**
   * The default order of the webhook filter: after Boot's character-encoding and observation
   * filters, before every filter that may read a request body and well before Spring Security's
   * filter chain ({@code -100}), so that a delivery is answered by its signature alone, never
   * refused for a missing CSRF token or login.
   */
  public static final int DEFAULT_FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 50;

  /** Whether to configure hookledger at all. */
  private boolean enabled = true;

  /**
   * The providers whose webhooks are received, by id: each adapter is a ProviderAdapter bean with
   * that id, or else the one found on the class path (java.util.ServiceLoader).
   */
  private Map<String, Provider> providers = new LinkedHashMap<>();

  /** The path under which deliveries are received, as {@code <path-prefix><provider id>}. */
  private String pathPrefix = "/webhooks/";

  /** The order of the webhook filter: ahead of Spring Security's filter chain (-100) and every filter that reads a body. */
  private int filterOrder = DEFAULT_FILTER_ORDER;

  /** The ledger's schema, a lower-case SQL identifier. */
  private String schema;

  /**
   * When to create or complete the ledger's schema at start-up (idempotent), as Boot's own schema
   * initializers: {@code embedded} (only on an embedded database), {@code always}, or {@code never} (when
   * the application's own Flyway or Liquibase applies it).
   */
  private DatabaseInitializationMode migrate = DatabaseInitializationMode.EMBEDDED;

  /** When handlers run: store-first (after the answer), inline (in the request's transaction) or shadow (record only). */
  private ProcessingMode mode;

  /** Event types (or patterns, as in @OnEvent) whose handlers run inline, while the others stay store-first. */
  private List<String> inline = new ArrayList<>();

  /** Threads processing events, 0 to 256; with 0 this application only receives. */
  private Integer workers;

  /** How long a worker's claim on an event holds unless renewed; at least 1 s. */
  private Duration lease;

  /** How often, on average, the workers look for waiting events when no notification wakes them. */
  private Duration pollInterval;

  /** How long the application's shutdown waits for the events in flight. */
  private Duration shutdownTimeout;

  /** How long the @OnEvent methods of one attempt may run. */
  private Duration handlerTimeout;

  /** PostgreSQL's statement_timeout in the runtime's transactions, the handlers' included; 0 turns it off. */
  private Duration statementTimeout;

  /** PostgreSQL's lock_timeout in the runtime's transactions; 0 turns it off. */
  private Duration lockTimeout;

  /** PostgreSQL's idle_in_transaction_session_timeout in the runtime's transactions; 0 turns it off. */
  private Duration idleInTransactionTimeout;

  /**
   * Whether the DataSource's pool sets statement_timeout, lock_timeout and idle_in_transaction_session_timeout on
   * each connection itself (e.g. spring.datasource.hikari.connection-init-sql), so that the runtime sends none per
   * transaction; the three timeouts above must then be left unset.
   */
  private Boolean sessionTimeoutsFromPool;

  /** Events claimed at most by one claim, 1 to 1000. */
  private Integer batchSize;

  /** Threads writing received deliveries to the ledger, each as one multi-row insert and one commit, 1 to 16. */
  private Integer ledgerWriters;

  /** Deliveries that may wait for a ledger writer at once, 1 to 100000; past that a delivery is answered 503. */
  private Integer receiveQueueCapacity;

  /** The most request-body bytes held in memory at once, across every delivery; default the builder's, a quarter of the heap. */
  private DataSize maxInFlightBodySize;

  /** The total time one request body may take to arrive, however slowly it trickles; then 408. */
  private Duration bodyReadTimeout;

  /** Threads sending the outbox's effects on this node, 0 to 256; 0 leaves sending to the other nodes. */
  private Integer outboxWorkers;

  /** How often, on average, the outbox's senders look for due effects when nothing wakes them. */
  private Duration outboxPollInterval;

  /**
   * The outbox's destinations by name: the base URL of HttpEffect.to(name, path), or the settings of the
   * EffectHandler bean of that name. A destination not listed keeps Destination's defaults.
   */
  private Map<String, Destination> destinations = new LinkedHashMap<>();

  /** The operator's admin API and page (dev.hookledger.runtime.admin.web.AdminServlet). */
  private final Admin admin = new Admin();

  /** The retry policy of failed attempts; unset ones keep {@code RetryPolicy.defaults()}. */
  private final Retry retry = new Retry();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Map<String, Provider> getProviders() {
    return providers;
  }

  public void setProviders(Map<String, Provider> providers) {
    this.providers = providers;
  }

  public String getPathPrefix() {
    return pathPrefix;
  }

  public void setPathPrefix(String pathPrefix) {
    this.pathPrefix = pathPrefix;
  }

  public int getFilterOrder() {
    return filterOrder;
  }

  public void setFilterOrder(int filterOrder) {
    this.filterOrder = filterOrder;
  }

  public String getSchema() {
    return schema;
  }

  public void setSchema(String schema) {
    this.schema = schema;
  }

  public DatabaseInitializationMode getMigrate() {
    return migrate;
  }

  public void setMigrate(DatabaseInitializationMode migrate) {
    this.migrate = migrate;
  }

  public ProcessingMode getMode() {
    return mode;
  }

  public void setMode(ProcessingMode mode) {
    this.mode = mode;
  }

  public List<String> getInline() {
    return inline;
  }

  public void setInline(List<String> inline) {
    this.inline = inline;
  }

  public Integer getWorkers() {
    return workers;
  }

  public void setWorkers(Integer workers) {
    this.workers = workers;
  }

  public Integer getBatchSize() {
    return batchSize;
  }

  public void setBatchSize(Integer batchSize) {
    this.batchSize = batchSize;
  }

  public Integer getLedgerWriters() {
    return ledgerWriters;
  }

  public void setLedgerWriters(Integer ledgerWriters) {
    this.ledgerWriters = ledgerWriters;
  }

  public Integer getReceiveQueueCapacity() {
    return receiveQueueCapacity;
  }

  public void setReceiveQueueCapacity(Integer receiveQueueCapacity) {
    this.receiveQueueCapacity = receiveQueueCapacity;
  }

  public Duration getLease() {
    return lease;
  }

  public void setLease(Duration lease) {
    this.lease = lease;
  }

  public Duration getPollInterval() {
    return pollInterval;
  }

  public void setPollInterval(Duration pollInterval) {
    this.pollInterval = pollInterval;
  }

  public Duration getShutdownTimeout() {
    return shutdownTimeout;
  }

  public void setShutdownTimeout(Duration shutdownTimeout) {
    this.shutdownTimeout = shutdownTimeout;
  }

  public Duration getHandlerTimeout() {
    return handlerTimeout;
  }

  public void setHandlerTimeout(Duration handlerTimeout) {
    this.handlerTimeout = handlerTimeout;
  }

  public Duration getStatementTimeout() {
    return statementTimeout;
  }

  public void setStatementTimeout(Duration statementTimeout) {
    this.statementTimeout = statementTimeout;
  }

  public Duration getLockTimeout() {
    return lockTimeout;
  }

  public void setLockTimeout(Duration lockTimeout) {
    this.lockTimeout = lockTimeout;
  }

  public Duration getIdleInTransactionTimeout() {
    return idleInTransactionTimeout;
  }

  public void setIdleInTransactionTimeout(Duration idleInTransactionTimeout) {
    this.idleInTransactionTimeout = idleInTransactionTimeout;
  }

  public DataSize getMaxInFlightBodySize() {
    return maxInFlightBodySize;
  }

  public void setMaxInFlightBodySize(DataSize maxInFlightBodySize) {
    this.maxInFlightBodySize = maxInFlightBodySize;
  }

  public Boolean getSessionTimeoutsFromPool() {
    return sessionTimeoutsFromPool;
  }

  public void setSessionTimeoutsFromPool(Boolean sessionTimeoutsFromPool) {
    this.sessionTimeoutsFromPool = sessionTimeoutsFromPool;
  }

  public Duration getBodyReadTimeout() {
    return bodyReadTimeout;
  }

  public void setBodyReadTimeout(Duration bodyReadTimeout) {
    this.bodyReadTimeout = bodyReadTimeout;
  }

  public Integer getOutboxWorkers() {
    return outboxWorkers;
  }

  public void setOutboxWorkers(Integer outboxWorkers) {
    this.outboxWorkers = outboxWorkers;
  }

  public Duration getOutboxPollInterval() {
    return outboxPollInterval;
  }

  public void setOutboxPollInterval(Duration outboxPollInterval) {
    this.outboxPollInterval = outboxPollInterval;
  }

  public Map<String, Destination> getDestinations() {
    return destinations;
  }

  public void setDestinations(Map<String, Destination> destinations) {
    this.destinations = destinations;
  }

  public Admin getAdmin() {
    return admin;
  }

  /** One provider's settings: {@code hookledger.providers.<id>.*}. */
  public Retry getRetry() {
    return retry;
  }

  /**
   * {@code hookledger.retry.*}: the common settings of the {@link dev.hookledger.runtime.RetryPolicy}
   * (a {@link WebhookRuntimeCustomizer} reaches the rest); each unset keeps its default.
   */
  public static class Retry {
    /** Filled by Spring's binder. */
    public Retry() {}

    /** Attempts before an event is dead, the first included; default 12. */
    private Integer maxAttempts;

    /** The wait after the first failed attempt; default 10 s. */
    private Duration firstDelay;

    /** The longest wait between attempts; default 1 h. */
    private Duration maxDelay;

    /** How much each wait grows over the one before; default 2. */
    private Double factor;

    /** The random share added to or taken from each wait, 0 to 1; default 0.2. */
    private Double jitter;

    public Integer getMaxAttempts() {
      return maxAttempts;
    }

    public void setMaxAttempts(Integer maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    public Duration getFirstDelay() {
      return firstDelay;
    }

    public void setFirstDelay(Duration firstDelay) {
      this.firstDelay = firstDelay;
    }

    public Duration getMaxDelay() {
      return maxDelay;
    }

    public void setMaxDelay(Duration maxDelay) {
      this.maxDelay = maxDelay;
    }

    public Double getFactor() {
      return factor;
    }

    public void setFactor(Double factor) {
      this.factor = factor;
    }

    public Double getJitter() {
      return jitter;
    }

    public void setJitter(Double jitter) {
      this.jitter = jitter;
    }

    @Override
    public String toString() {
      return "Retry[maxAttempts=" + maxAttempts + ", firstDelay=" + firstDelay + ", maxDelay=" + maxDelay
          + ", factor=" + factor + ", jitter=" + jitter + "]";
    }
  }

  public static class Provider {
    /** Filled by Spring's binder. */
    public Provider() {}

    /** The provider's webhook signing secret; several, comma-separated, during a rotation. Never logged. */
    private List<String> secret = new ArrayList<>();

    /** Overrides the adapter's body limit for this provider; a larger body is answered 413. */
    private DataSize maxBodySize;

    public List<String> getSecret() {
      return secret;
    }

    public void setSecret(List<String> secret) {
      this.secret = secret;
    }

    public DataSize getMaxBodySize() {
      return maxBodySize;
    }

    public void setMaxBodySize(DataSize maxBodySize) {
      this.maxBodySize = maxBodySize;
    }

    @Override
    public String toString() {
      return "Provider[secret=****, maxBodySize=" + maxBodySize + "]";
    }
  }

  /**
   * One destination of the outbox: {@code hookledger.destinations.<name>.*}, the keys of
   * {@link dev.hookledger.runtime.Destination#fromProperties}; each unset keeps its default.
   */
  public static class Destination {
    /** Filled by Spring's binder. */
    public Destination() {}

    /** The base URL of HttpEffect.to(name, path), e.g. https://mail.example.com. */
    private URI url;

    /** One request, to the end of the answer's headers; default 10 s. */
    private Duration timeout;

    /** Opening a connection; default 5 s. */
    private Duration connectTimeout;

    /** Attempts before an effect is dead, the first included; default 16. */
    private Integer maxAttempts;

    /** The wait after the first failed attempt; default 1 s. */
    private Duration firstDelay;

    /** The longest wait between attempts; default 10 min. */
    private Duration maxDelay;

    /** Effects in flight at once, across all nodes; default 16. */
    private Integer concurrency;

    /** Effects started per second, across all nodes; default no limit. */
    private Double ratePerSecond;

    /** Effects that may start at once after a quiet spell; default the rate rounded up. */
    private Integer burst;

    /** The request header the effect's idempotency key goes in; default Idempotency-Key. */
    private String idempotencyHeader;

    /** Consecutive failed attempts that open the circuit breaker, 0 for none; default 10. */
    private Integer breakerFailures;

    /** How long an open breaker waits before it lets one effect through as a probe; default 30 s. */
    private Duration breakerProbeAfter;

    public URI getUrl() {
      return url;
    }

    public void setUrl(URI url) {
      this.url = url;
    }

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }

    public Duration getConnectTimeout() {
      return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
    }

    public Integer getMaxAttempts() {
      return maxAttempts;
    }

    public void setMaxAttempts(Integer maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    public Duration getFirstDelay() {
      return firstDelay;
    }

    public void setFirstDelay(Duration firstDelay) {
      this.firstDelay = firstDelay;
    }

    public Duration getMaxDelay() {
      return maxDelay;
    }

    public void setMaxDelay(Duration maxDelay) {
      this.maxDelay = maxDelay;
    }

    public Integer getConcurrency() {
      return concurrency;
    }

    public void setConcurrency(Integer concurrency) {
      this.concurrency = concurrency;
    }

    public Double getRatePerSecond() {
      return ratePerSecond;
    }

    public void setRatePerSecond(Double ratePerSecond) {
      this.ratePerSecond = ratePerSecond;
    }

    public Integer getBurst() {
      return burst;
    }

    public void setBurst(Integer burst) {
      this.burst = burst;
    }

    public String getIdempotencyHeader() {
      return idempotencyHeader;
    }

    public void setIdempotencyHeader(String idempotencyHeader) {
      this.idempotencyHeader = idempotencyHeader;
    }

    public Integer getBreakerFailures() {
      return breakerFailures;
    }

    public void setBreakerFailures(Integer breakerFailures) {
      this.breakerFailures = breakerFailures;
    }

    public Duration getBreakerProbeAfter() {
      return breakerProbeAfter;
    }

    public void setBreakerProbeAfter(Duration breakerProbeAfter) {
      this.breakerProbeAfter = breakerProbeAfter;
    }

    @Override
    public String toString() {
      return "Destination[url=" + url + ", timeout=" + timeout + ", connectTimeout=" + connectTimeout
          + ", maxAttempts=" + maxAttempts + ", firstDelay=" + firstDelay + ", maxDelay=" + maxDelay + ", concurrency="
          + concurrency + ", ratePerSecond=" + ratePerSecond + ", burst=" + burst + ", idempotencyHeader="
          + idempotencyHeader + ", breakerFailures=" + breakerFailures + ", breakerProbeAfter=" + breakerProbeAfter + "]";
    }
  }

  /** The admin API and page: {@code hookledger.admin.*}. Off unless both are set. */
  public static class Admin {
    /** Filled by Spring's binder. */
    public Admin() {}

    /** The path the admin servlet serves, e.g. /hookledger; unset, there is none. */
    private String path;

    /** The Bearer token (or Basic password) the admin servlet asks for, at least 16 characters. Never logged. */
    private String token;

    public String getPath() {
      return path;
    }

    public void setPath(String path) {
      this.path = path;
    }

    public String getToken() {
      return token;
    }

    public void setToken(String token) {
      this.token = token;
    }

    @Override
    public String toString() {
      return "Admin[path=" + path + ", token=****]";
    }
  }
}
