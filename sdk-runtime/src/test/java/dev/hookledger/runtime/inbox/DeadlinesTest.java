package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.SIGNER;
import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * Nothing waits without a bound: a handler past its deadline, a statement that would run for a
 * minute, a lock held by another transaction; and a healthy handler slower than its lease keeps it.
 */
class DeadlinesTest {
  /**
   * The lease of the renewal test: 2 s, renewed every 667 ms. On Citus 6 s: each renewal there is a
   * transaction through the coordinator, and on a loaded two-core machine its JVM and three servers
   * were seen to stall a heartbeat for 3.7 s, past a 2 s lease (the runtime's default lease is
   * 30 s: this is the test's short one, not the product's).
   */
  static final Duration SHORT_LEASE = Duration.ofSeconds(TestDatabase.citus() ? 6 : 2);
  static final RetryPolicy QUICK_RETRY = RetryPolicy.builder().firstDelay(Duration.ofMillis(50)).jitter(0).build();

  final TestDatabase.Database db = InboxFixture.database();
  final List<String> heard = new CopyOnWriteArrayList<>();

  @Test
  void handlerThatHangsPastItsTimeoutIsInterruptedRolledBackAndRetried() {
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), new Slow()).inbox(i -> i.workers(1).retryPolicy(QUICK_RETRY))
        .deadlines(d -> d.handlerTimeout(Duration.ofMillis(300))).listener(retries(heard)).build()) {
      runtime.start();
      InboxFixture.receive(runtime, "evt_sleep", "job.sleep", "{}");
      InboxFixture.awaitStatus(db, "evt_sleep", "done");
    }
    assertEquals(2, event(db, "evt_sleep").get("attempts"));
    assertEquals(1, heard.size(), heard.toString());
    assertEquals("retried 1: handlers of testhook event evt_sleep job.sleep ran past their timeout of 300 ms"
        + " (then threw: java.lang.InterruptedException: sleep interrupted)", heard.get(0));
    assertEquals(1, number(db, "select count(*) from effect where event_id = 'evt_sleep'"),
        "the first attempt's write was rolled back");
    assertEquals(0, number(db, "select count(*) from pg_stat_activity where datname = current_database()"
        + " and state like 'idle in transaction%'"), "its transaction ended and its connection went back");
  }

  @Test
  void statementStillRunningAtTheHandlerDeadlineIsCancelled() {
    // no statement timeout: only the handler deadline can stop the minute-long sleep
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), new Slow()).inbox(i -> i.workers(1).retryPolicy(QUICK_RETRY))
        .deadlines(d -> d.statementTimeout(Duration.ZERO)
            .handlerTimeout(Duration.ofMillis(500))).listener(retries(heard)).build()) {
      runtime.start();
      InboxFixture.receive(runtime, "evt_sql", "job.sql", "{}");
      InboxFixture.awaitStatus(db, "evt_sql", "done"); // within Await's 15 s, not pg_sleep's 60
    }
    assertEquals(2, event(db, "evt_sql").get("attempts"));
    assertEquals(1, heard.size(), heard.toString());
    assertTrue(heard.get(0).startsWith("retried 1: handlers of testhook event evt_sql job.sql ran past their timeout of 500 ms"
        + " (then threw: org.jooq.exception.DataAccessException: SQL [select pg_sleep(60)]; ERROR: canceling statement"
        + " due to user request"), heard.get(0));
  }

  @Test
  void handlerSlowerThanItsLeaseKeepsItAndRunsOnce() throws Exception {
    Slow slow = new Slow();
    // both nodes poll every 50 ms, and the handler runs two and a half leases: without renewals it
    // would be taken over twice and run three times
    try (WebhookRuntime a = builder(db.jdbcUrl(), slow).inbox(i -> i.workers(1).lease(SHORT_LEASE)
            .pollInterval(Duration.ofMillis(50))).build();
        WebhookRuntime b = builder(db.jdbcUrl(), slow).inbox(i -> i.workers(2).lease(SHORT_LEASE)
                .pollInterval(Duration.ofMillis(50))).build()) {
      a.start();
      b.start();
      InboxFixture.receive(a, "evt_long", "job.long", "{}");
      Await.until("evt_long is done", SHORT_LEASE.multipliedBy(8), () -> "done".equals(event(db, "evt_long").get("status")));
    }
    assertEquals(1, slow.longRuns.get(), "the handler ran once");
    Map<String, Object> row = event(db, "evt_long");
    assertEquals(1, row.get("attempts"));
    assertEquals(null, row.get("last_error"));
    assertEquals(1, number(db, "select count(*) from effect where event_id = 'evt_long'"));
  }

  @Test
  void attemptQueuedBehindAHeldEntityVersionLockTimesOutAndIsRetried() throws Exception {
    Versions handler = new Versions();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), handler)
        .inbox(i -> i.workers(1)
            .retryPolicy(RetryPolicy.builder().firstDelay(Duration.ofMillis(200)).factor(1).jitter(0).build()))
        .deadlines(d -> d.lockTimeout(Duration.ofMillis(200)))
        .listener(retries(heard)).build()) {
      runtime.start();
      runtime.receive("testhook", SIGNER.delivery("testhook", "evt_v1", "plan.changed", "{}", "sub_9", 1));
      InboxFixture.awaitStatus(db, "evt_v1", "done");

      // another transaction (a hung handler's, on another node) holds the entity's version row
      try (Connection holder = db.dataSource().getConnection(); Statement s = holder.createStatement()) {
        holder.setAutoCommit(false);
        // on Citus, where the row also carries a scope, by its scope too: Citus takes a row lock only in a
        // statement routed to one shard
        String scope = TestDatabase.citus() ? " and scope = '" + LedgerRows.first(db.dataSource(),
            "select scope from hookledger.entity_version where entity_key = 'sub_9'").orElseThrow().get("scope") + "'" : "";
        s.execute("select * from hookledger.entity_version where entity_key = 'sub_9'" + scope + " for update");
        runtime.receive("testhook", SIGNER.delivery("testhook", "evt_v2", "plan.changed", "{}", "sub_9", 2));
        Await.until("two attempts of evt_v2 failed on the lock", () -> heard.size() >= 2);
        assertTrue(heard.get(0).startsWith("retried 1: ") && heard.get(0).contains("canceling statement due to lock"
            + " timeout"), heard.get(0));
        holder.commit();
      }
      InboxFixture.awaitStatus(db, "evt_v2", "done");
    }
    assertEquals(List.of("evt_v1", "evt_v2"), handler.applied);
    assertTrue((Integer) event(db, "evt_v2").get("attempts") >= 3);
  }

  @Test
  void sessionTimeoutsHoldOnThePoolBuiltFromAUrlAndOnAGivenDataSource() {
    Settings pooled = new Settings();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), pooled).inbox(i -> i.workers(1)).build()) {
      runtime.start();
      InboxFixture.receive(runtime, "evt_url", "job.settings", "{}");
      InboxFixture.awaitStatus(db, "evt_url", "done");
    }
    Settings given = new Settings();
    try (WebhookRuntime runtime = WebhookRuntime.builder().dataSource(db.forRuntime())
        .provider(new TestHookAdapter(), Secrets.of(InboxFixture.SECRET)).handlers(given)
        .inbox(i -> i.workers(1).pollInterval(Duration.ofMillis(100)))
        .deadlines(d -> d.statementTimeout(GIVEN_STATEMENT_TIMEOUT)
            .lockTimeout(Duration.ofMillis(700))
            .idleInTransactionTimeout(Duration.ofMinutes(2))).build()) {
      runtime.start();
      InboxFixture.receive(runtime, "evt_ds", "job.settings", "{}");
      InboxFixture.awaitStatus(db, "evt_ds", "done");
    }
    assertEquals(List.of("5s", "3s", "1min"), pooled.seen);
    assertEquals(List.of(TestDatabase.citus() ? "4s" : "1500ms", "700ms", "2min"), given.seen);
  }

  @Test
  void aPoolThatSetsTheSessionTimeoutsItselfGetsNoSetLocalAndItsTimeoutsHold() {
    List<String> prepared = new CopyOnWriteArrayList<>();
    try (HikariDataSource pool = poolWithTimeouts()) {
      DataSource watched = statementsOf(pool, prepared);
      Settings given = new Settings();
      try (WebhookRuntime runtime = WebhookRuntime.builder().dataSource(watched)
          .provider(new TestHookAdapter(), Secrets.of(InboxFixture.SECRET)).handlers(given, new Slow())
          .inbox(i -> i.workers(1).retryPolicy(QUICK_RETRY))
          .deadlines(d -> d.sessionTimeoutsFromPool(true)).listener(retries(heard))
          .inbox(i -> i.pollInterval(Duration.ofMillis(100))).build()) {
        runtime.start();
        InboxFixture.receive(runtime, "evt_pool", "job.settings", "{}");
        InboxFixture.receive(runtime, "evt_pool_sql", "job.sql", "{}");
        InboxFixture.awaitStatus(db, "evt_pool", "done");
        InboxFixture.awaitStatus(db, "evt_pool_sql", "done");
      }
      assertEquals(List.of(POOL_STATEMENT_TIMEOUT, "300ms", "45s"), given.seen,
          "the pool's timeouts, not the runtime's defaults");
      assertEquals(List.of("retried 1: canceling statement due to statement timeout"), heard.stream()
          .map(h -> h.replaceAll("^(retried 1: ).*(canceling statement due to statement timeout).*$", "$1$2"))
          .toList(), "the pool's statement timeout cancelled the first attempt's 60 s sleep");
      assertEquals(List.of(), prepared.stream().filter(sql -> sql.contains("set_config")).toList());

      // the same pool without the option: the watch sees each transaction's SET LOCAL
      try (WebhookRuntime runtime = WebhookRuntime.builder().dataSource(watched)
          .provider(new TestHookAdapter(), Secrets.of(InboxFixture.SECRET)).handlers(new Settings())
          .inbox(i -> i.workers(1)
              .pollInterval(Duration.ofMillis(100))).build()) {
        runtime.start();
        InboxFixture.receive(runtime, "evt_local", "job.settings", "{}");
        InboxFixture.awaitStatus(db, "evt_local", "done");
      }
      assertTrue(prepared.stream().anyMatch(sql -> sql.contains("set_config('statement_timeout', '5000', true)")),
          "the watch sees SET LOCAL where it is sent");
    }
  }

  /**
   * The statement timeout given to a runtime above: on a Citus coordinator a session's first statements
   * open its connections to the workers, which took more than 1.5 s at a load average of 15 (the event's
   * first attempt cancelled, its retry past the test's wait).
   */
  private static final Duration GIVEN_STATEMENT_TIMEOUT = Duration.ofMillis(TestDatabase.citus() ? 4000 : 1500);

  /**
   * The statement timeout the pool below sets: on a Citus coordinator a new connection's first write
   * opens the coordinator's own connections to the workers, which takes more than 400 ms on a loaded
   * machine, and the test is about whose timeout holds, not about its length.
   */
  private static final String POOL_STATEMENT_TIMEOUT = TestDatabase.citus() ? "3s" : "400ms";

  /** A pool whose connections carry their own session timeouts, set as each one opens. */
  private HikariDataSource poolWithTimeouts() {
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(db.jdbcUrl());
    c.setMaximumPoolSize(6);
    c.setPoolName("sets-its-timeouts");
    c.setConnectionInitSql("set statement_timeout = '" + POOL_STATEMENT_TIMEOUT + "'; set lock_timeout = '300ms';"
        + " set idle_in_transaction_session_timeout = '45s'");
    return new HikariDataSource(c);
  }

  /** {@code target}, recording the text of every statement prepared on its connections into {@code prepared}. */
  private static DataSource statementsOf(DataSource target, List<String> prepared) {
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, args) -> {
          Object result = invoke(method, target, args);
          if (result instanceof Connection c) {
            return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (p, m, a) -> {
                  if (m.getName().equals("prepareStatement")) {
                    prepared.add((String) a[0]);
                  }
                  return invoke(m, c, a);
                });
          }
          return result;
        });
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static WebhookListener retries(List<String> heard) {
    return new WebhookListener() {
      @Override
      public void retried(WebhookEvent event, int attempt, Throwable error, Instant next) {
        heard.add("retried " + attempt + ": " + describe(error));
      }
    };
  }

  /**
   * The error's message, then the database's reason if a cause gives one, then the first line of what
   * the handler threw after its deadline, if anything.
   */
  private static String describe(Throwable error) {
    String message = String.valueOf(error.getMessage()).lines().findFirst().orElse("");
    for (Throwable c = error.getCause(); c != null; c = c.getCause()) {
      if (c instanceof java.sql.SQLException && !message.contains(String.valueOf(c.getMessage()))) {
        message += " <- " + c.getMessage();
      }
    }
    for (Throwable s : error.getSuppressed()) {
      Throwable thrown = s.getCause() != null ? s.getCause() : s;
      message += " (then threw: " + thrown.toString().lines().findFirst().orElse("") + ")";
    }
    return message;
  }

  static final class Slow {
    final AtomicInteger longRuns = new AtomicInteger();

    @OnEvent("job.sleep")
    void sleep(EventContext context, DSLContext tx) throws InterruptedException {
      tx.execute("insert into effect (event_id, node) values (?, 'slow')", context.event().eventId());
      if (context.attempt() == 1) {
        Thread.sleep(60_000);
      }
    }

    @OnEvent("job.sql")
    void sql(EventContext context, DSLContext tx) {
      if (context.attempt() == 1) {
        tx.execute("select pg_sleep(60)");
      }
    }

    @OnEvent("job.long")
    void longer(EventContext context, DSLContext tx) throws InterruptedException {
      longRuns.incrementAndGet();
      tx.execute("insert into effect (event_id, node) values (?, 'long')", context.event().eventId());
      Thread.sleep(SHORT_LEASE.toMillis() * 5 / 2); // two and a half leases long: a slow call to a healthy API
    }
  }

  static final class Versions {
    final List<String> applied = new CopyOnWriteArrayList<>();

    @OnEvent(value = "plan.changed", skipStale = true)
    void apply(WebhookEvent event) {
      applied.add(event.eventId());
    }
  }

  static final class Settings {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @OnEvent("job.settings")
    void read(DSLContext tx) {
      for (String name : List.of("statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout")) {
        seen.add(tx.fetchValue("show " + name).toString());
      }
    }
  }
}
