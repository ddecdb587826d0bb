package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How long anything a runtime does may wait: a handler's attempt, one statement, one lock wait and
 * one idle open transaction on the runtime's sessions, and the JDBC connect and socket timeouts of
 * the pool a runtime builds from a JDBC URL. Given to {@link WebhookRuntimeBuilder#deadlines(Deadlines)}.
 * A zero statement, lock or idle timeout turns that one off, as in PostgreSQL.
 *
 * <p>The defaults: handler 30 s, statement 5 s, lock 3 s, idle in transaction 60 s, connect 3 s,
 * socket 6 s, session timeouts set by the runtime. With them a database that stops answering makes a
 * delivery 503 with {@code Retry-After} within 10 s, before GitHub gives up on it.
 *
 * <p>Each setter checks its own value; how the values fit together is checked by
 * {@link WebhookRuntimeBuilder#build()}, which also knows whether the runtime builds its own pool:
 * the idle-in-transaction timeout must be longer than the handler's, the socket timeout longer than
 * the statement timeout (for a pool built from a JDBC URL), and with {@link Builder#sessionTimeoutsFromPool}
 * the three session timeouts must stay at their defaults.
 *
 * <pre>{@code
 * WebhookRuntime.builder()
 *     .deadlines(Deadlines.builder().handlerTimeout(Duration.ofSeconds(10)).build())
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class Deadlines {
  private static final Deadlines DEFAULTS = builder().build();

  private final Duration handlerTimeout;
  private final Duration statementTimeout;
  private final Duration lockTimeout;
  private final Duration idleInTransactionTimeout;
  private final Duration connectTimeout;
  private final Duration socketTimeout;
  private final boolean sessionTimeoutsFromPool;

  private Deadlines(Builder b) {
    this.handlerTimeout = b.handlerTimeout;
    this.statementTimeout = b.statementTimeout;
    this.lockTimeout = b.lockTimeout;
    this.idleInTransactionTimeout = b.idleInTransactionTimeout;
    this.connectTimeout = b.connectTimeout;
    this.socketTimeout = b.socketTimeout;
    this.sessionTimeoutsFromPool = b.sessionTimeoutsFromPool;
  }

  /** The defaults: handler 30 s, statement 5 s, lock 3 s, idle 60 s, connect 3 s, socket 6 s, set per transaction. */
  public static Deadlines defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this value's settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder().handlerTimeout(handlerTimeout).statementTimeout(statementTimeout).lockTimeout(lockTimeout)
        .idleInTransactionTimeout(idleInTransactionTimeout).connectTimeout(connectTimeout).socketTimeout(socketTimeout)
        .sessionTimeoutsFromPool(sessionTimeoutsFromPool);
  }

  /** How long the {@code @OnEvent} methods of one attempt may run. */
  public Duration handlerTimeout() {
    return handlerTimeout;
  }

  /** PostgreSQL's {@code statement_timeout} on the runtime's transactions; zero for none. */
  public Duration statementTimeout() {
    return statementTimeout;
  }

  /** PostgreSQL's {@code lock_timeout} on the runtime's transactions; zero for none. */
  public Duration lockTimeout() {
    return lockTimeout;
  }

  /** PostgreSQL's {@code idle_in_transaction_session_timeout} on the runtime's sessions; zero for none. */
  public Duration idleInTransactionTimeout() {
    return idleInTransactionTimeout;
  }

  /** The driver's TCP connect timeout, for a pool built from a JDBC URL. */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** The driver's socket read timeout, for a pool built from a JDBC URL. */
  public Duration socketTimeout() {
    return socketTimeout;
  }

  /** Whether the application's pool sets the three session timeouts on its connections itself. */
  public boolean sessionTimeoutsFromPool() {
    return sessionTimeoutsFromPool;
  }

  @Override
  public String toString() {
    return "Deadlines[handlerTimeout=" + handlerTimeout + ", statementTimeout=" + statementTimeout + ", lockTimeout="
        + lockTimeout + ", idleInTransactionTimeout=" + idleInTransactionTimeout + ", connectTimeout="
        + connectTimeout + ", socketTimeout=" + socketTimeout + ", sessionTimeoutsFromPool="
        + sessionTimeoutsFromPool + "]";
  }

  /** Builds a {@link Deadlines}; each setter names a bad value. Not thread-safe. */
  public static final class Builder {
    private Duration handlerTimeout = Duration.ofSeconds(30);
    private Duration statementTimeout = Duration.ofSeconds(5);
    private Duration lockTimeout = Duration.ofSeconds(3);
    private Duration idleInTransactionTimeout = Duration.ofSeconds(60);
    private Duration connectTimeout = Duration.ofSeconds(3);
    private Duration socketTimeout = Duration.ofSeconds(6);
    private boolean sessionTimeoutsFromPool;

    private Builder() {}

    /**
     * How long the {@code @OnEvent} methods of one attempt may run, at least 1 ms; default 30 s. At
     * the deadline the statement running is cancelled and the thread interrupted; the attempt fails,
     * its transaction rolls back, and the event is retried by the {@link RetryPolicy}. A handler that
     * ignores both keeps its worker busy, but no longer keeps its event: its lease stops being
     * renewed. 30 s is far beyond a sound handler (a few writes, a call or two to an API with its own
     * timeouts), and short enough that a hung one frees its locks within a minute. Must be shorter
     * than {@link #idleInTransactionTimeout}.
     */
    public Builder handlerTimeout(Duration timeout) {
      this.handlerTimeout = atLeast("handlerTimeout", timeout, Duration.ofMillis(1));
      return this;
    }

    /**
     * PostgreSQL's {@code statement_timeout} on the runtime's transactions, handlers' statements
     * included; default 5 s; {@link Duration#ZERO} turns it off. A statement running longer is
     * cancelled: on the receive path the delivery is answered 503 (the provider retries), in a worker
     * the attempt fails and is retried. 5 s is a hundred times what the ledger's statements take, and
     * Shopify gives up on a delivery after 5 s anyway. Must be shorter than {@link #socketTimeout}.
     */
    public Builder statementTimeout(Duration timeout) {
      this.statementTimeout = notNegative("statementTimeout", timeout);
      return this;
    }

    /**
     * PostgreSQL's {@code lock_timeout} on the runtime's transactions; default 3 s; {@link Duration#ZERO}
     * turns it off. A lock wait longer than this fails the statement: a worker queued behind another
     * transaction's lock on the same event or {@code entity_version} row (a hung handler's, say) fails
     * its attempt, which is retried with backoff, rather than hanging with it.
     */
    public Builder lockTimeout(Duration timeout) {
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
    public Builder idleInTransactionTimeout(Duration timeout) {
      this.idleInTransactionTimeout = notNegative("idleInTransactionTimeout", timeout);
      return this;
    }

    /**
     * For a pool built from {@link WebhookRuntimeBuilder#jdbcUrl}: the driver's TCP connect timeout,
     * at least 1 s (whole seconds, rounded up); default 3 s. The login as a whole is bounded by the
     * pool's 3 s connection timeout. Set it in your own pool's URL ({@code connectTimeout=3}) for a
     * {@link WebhookRuntimeBuilder#dataSource}.
     */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = atLeast("connectTimeout", timeout, Duration.ofSeconds(1));
      return this;
    }

    /**
     * For a pool built from {@link WebhookRuntimeBuilder#jdbcUrl}: the driver's socket read timeout,
     * at least 1 s (whole seconds, rounded up); default 6 s. A database that stops answering, rather
     * than refusing, fails the statement after this long, so that a delivery is answered 503 with
     * {@code Retry-After} within 10 s (the pool's 3 s wait for a connection, then this; GitHub gives
     * up on a delivery after 10 s) instead of holding a request thread for minutes. Longer than
     * {@link #statementTimeout}, so that a slow statement is cancelled by the server, keeping its
     * connection, before the socket gives up on it. Set it in your own pool's URL
     * ({@code socketTimeout=6}) for a {@link WebhookRuntimeBuilder#dataSource}.
     */
    public Builder socketTimeout(Duration timeout) {
      this.socketTimeout = atLeast("socketTimeout", timeout, Duration.ofSeconds(1));
      return this;
    }

    /**
     * For a {@link WebhookRuntimeBuilder#dataSource}: whether its connections already carry
     * PostgreSQL's {@code statement_timeout}, {@code lock_timeout} and
     * {@code idle_in_transaction_session_timeout}, set by the application's pool when each connection
     * opens (HikariCP's {@code connectionInitSql}, or the driver's
     * {@code options=-c statement_timeout=5000 ...}); default false. When true, the runtime no longer
     * sets {@link #statementTimeout}, {@link #lockTimeout} and {@link #idleInTransactionTimeout} at
     * the start of each of its transactions ({@code SET LOCAL}, one round trip per event), and refuses
     * to be given them: the pool's values are the ones that hold, so keep them bounded. The pool a
     * runtime builds from a {@link WebhookRuntimeBuilder#jdbcUrl} sets them on each connection itself
     * and never sends them per transaction.
     */
    public Builder sessionTimeoutsFromPool(boolean fromPool) {
      this.sessionTimeoutsFromPool = fromPool;
      return this;
    }

    /** Builds the value; how its values fit together is checked by {@link WebhookRuntimeBuilder#build()}. */
    public Deadlines build() {
      return new Deadlines(this);
    }

    private static Duration atLeast(String name, Duration d, Duration min) {
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
  }
}
