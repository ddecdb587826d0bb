package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.InboundDelivery;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.spi.ProviderAdapter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.postgresql.ds.PGSimpleDataSource;

/** The builder names each bad value, in the setter where it can and in {@code build()} where values must fit together. */
class WebhookRuntimeBuilderTest {

  @Test
  void schemaMustBeALowerCaseIdentifier() {
    assertMessage("schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters), but was"
        + " 'Hook-Ledger'", () -> WebhookRuntime.builder().schema("Hook-Ledger"));
  }

  @Test
  void workersMustBeInRange() {
    assertMessage("workers must be between 0 and 256, but was -1", () -> WebhookRuntime.builder()
        .inbox(i -> i.workers(-1)));
    assertMessage("workers must be between 0 and 256, but was 257", () -> WebhookRuntime.builder()
        .inbox(i -> i.workers(257)));
  }

  @Test
  void jdbcUrlMustBePostgresAndItsPasswordIsMasked() {
    assertMessage("jdbcUrl must start with 'jdbc:postgresql:', but was 'jdbc:mysql://db/app?user=app&password=****'",
        () -> WebhookRuntime.builder().jdbcUrl("jdbc:mysql://db/app?user=app&password=hunter2"));
  }

  @Test
  void maxBodyBytesMustBePositiveAndNameARegisteredProvider() {
    assertMessage("maxBodyBytes must be >= 1, but was 0", () -> WebhookRuntime.builder().maxBodyBytes("testhook", 0));
    assertMessage("maxInFlightBodyBytes must be >= 1, but was 0", () -> WebhookRuntime.builder()
        .receive(r -> r.maxInFlightBodyBytes(0)));
    assertMessage("maxBodyBytes given for provider 'stripe', which is not registered (registered: testhook)",
        () -> valid().maxBodyBytes("stripe", 1024).build());
  }

  @Test
  void exactlyOneLedgerDatabaseIsNeeded() {
    assertMessage("no ledger database: set dataSource(...) or jdbcUrl(...)", () -> WebhookRuntime.builder()
        .provider(new TestHookAdapter(), Secrets.of("s")).build());
    assertMessage("set either dataSource(...) or jdbcUrl(...), not both",
        () -> valid().jdbcUrl("jdbc:postgresql://localhost/app").build());
  }

  @Test
  void atLeastOneProviderAndEachIdOnce() {
    assertMessage("no provider: register one with provider(...)",
        () -> WebhookRuntime.builder().dataSource(new PGSimpleDataSource()).build());
    assertMessage("two adapters with id 'testhook': " + TestHookAdapter.class.getName() + " and "
        + TestHookAdapter.class.getName(), () -> valid().provider(new TestHookAdapter(), Secrets.of("t")).build());
  }

  @Test
  void providerIdsAreLowerCase() {
    assertMessage("provider id of " + TestHookAdapter.class.getName() + " must be lower case ([a-z0-9][a-z0-9_.-]*),"
        + " but was 'Stripe'", () -> WebhookRuntime.builder().provider(new TestHookAdapter("Stripe"), Secrets.of("s")));
  }

  @Test
  void providerFoundByIdListsTheIdsOnTheClassPath() {
    assertMessage("no ProviderAdapter with id 'stripe' on the class path (found: standard, testhook); add the provider's"
        + " module, e.g. dev.hookledger:hookledger-stripe, or pass the adapter itself",
        () -> WebhookRuntime.builder().provider("stripe", Secrets.of("s")));
    valid().provider("testhook", Secrets.of("s"));
  }

  @Test
  void inlinePatternsAreCheckedAndNeedStoreFirst() {
    assertMessage("inline: bad event type pattern 'a*b' ('*' may only end a pattern, as in \"invoice.*\", or stand"
        + " alone as \"*\")", () -> WebhookRuntime.builder().inline("a*b"));
    assertMessage("inline([order.*]) selects INLINE types within STORE_FIRST, but mode is SHADOW",
        () -> valid().inline("order.*").mode(ProcessingMode.SHADOW).build());
  }

  @Test
  void receiveBeforeStartIsRefusedAsUnavailable() {
    try (WebhookRuntime runtime = valid().build()) {
      dev.hookledger.LedgerUnavailableException e = assertThrows(dev.hookledger.LedgerUnavailableException.class,
          () -> runtime.receive("testhook", dev.hookledger.InboundDelivery.post("/webhooks/testhook",
              dev.hookledger.HttpHeaders.empty(), "{}")));
      assertEquals("WebhookRuntime is not started: call start() before receiving deliveries", e.getMessage());
    }
  }

  @Test
  void inlineProcessingWarnsOfEachProviderThatNeverRedeliversAndOnlyOfThose() {
    String inline = stderrOf(() -> valid().provider(new NeverRedelivers(), Secrets.of("s"))
        .mode(ProcessingMode.INLINE).build());
    assertTrue(inline.contains("INLINE processing is configured and provider 'oneshot' is registered: it never"
        + " redelivers on its own, so an event of it whose INLINE handler fails is lost until redelivered by hand"),
        inline);
    assertFalse(inline.contains("provider 'testhook' is registered: it never redelivers"), inline);

    String storeFirst = stderrOf(() -> valid().provider(new NeverRedelivers(), Secrets.of("s")).build());
    assertFalse(storeFirst.contains("INLINE processing is configured"), storeFirst);
  }

  /** An adapter that, like GitHub's, says its provider never delivers a failed delivery again. */
  static final class NeverRedelivers implements ProviderAdapter {
    private final TestHookAdapter delegate = new TestHookAdapter("oneshot");

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public boolean redeliversOnFailure() {
      return false;
    }

    @Override
    public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
      return delegate.verify(delivery, secrets, clock);
    }
  }

  /** What slf4j-simple (the tests' binding, which writes to the current System.err) logged during {@code action}. */
  private static String stderrOf(Runnable action) {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Test
  void deadlinesAreCheckedAloneAndTogether() {
    assertMessage("handlerTimeout must be >= 1 ms, but was PT0S", () -> valid()
        .deadlines(d -> d.handlerTimeout(java.time.Duration.ZERO)));
    assertMessage("statementTimeout must not be negative, but was PT-1S",
        () -> valid().deadlines(d -> d.statementTimeout(java.time.Duration.ofSeconds(-1))));
    assertMessage("lockTimeout must not be negative, but was PT-0.001S",
        () -> valid().deadlines(d -> d.lockTimeout(java.time.Duration.ofMillis(-1))));
    assertMessage("socketTimeout must be >= 1000 ms, but was PT0.5S",
        () -> valid().deadlines(d -> d.socketTimeout(java.time.Duration.ofMillis(500))));
    assertMessage("connectTimeout must be >= 1000 ms, but was PT0S", () -> valid()
        .deadlines(d -> d.connectTimeout(java.time.Duration.ZERO)));
    assertMessage("idleInTransactionTimeout (PT30S) must be longer than handlerTimeout (PT30S), so that the server never"
        + " ends a transaction whose handler is within its time",
        () -> valid().deadlines(d -> d.idleInTransactionTimeout(java.time.Duration.ofSeconds(30))).build());
    assertMessage("socketTimeout (PT6S) must be longer than statementTimeout (PT6S), so that the server cancels a slow"
        + " statement before the socket gives up on it", () -> WebhookRuntime.builder()
        .jdbcUrl("jdbc:postgresql://localhost/app").provider(new TestHookAdapter(), Secrets.of("s"))
        .deadlines(d -> d.statementTimeout(java.time.Duration.ofSeconds(6))).build());
    // a data source of the application's: its socket timeout is its own, so a long statement timeout is fine
    valid()
        .deadlines(d -> d.statementTimeout(java.time.Duration.ofMinutes(1))
            .idleInTransactionTimeout(java.time.Duration.ZERO)).build();
  }

  @Test
  void sessionTimeoutsFromPoolRefusesTimeoutsItWouldNotApplyAndAPoolOfItsOwn() {
    assertMessage("statementTimeout (PT4S) is not applied with sessionTimeoutsFromPool(true): set statement_timeout on"
        + " the pool's connections instead",
        () -> valid()
            .deadlines(d -> d.sessionTimeoutsFromPool(true).statementTimeout(java.time.Duration.ofSeconds(4))).build());
    assertMessage("lockTimeout (PT0S) is not applied with sessionTimeoutsFromPool(true): set lock_timeout on the pool's"
        + " connections instead", () -> valid()
            .deadlines(d -> d.lockTimeout(java.time.Duration.ZERO).sessionTimeoutsFromPool(true)).build());
    assertMessage("idleInTransactionTimeout (PT2M) is not applied with sessionTimeoutsFromPool(true): set"
        + " idle_in_transaction_session_timeout on the pool's connections instead", () -> valid()
        .deadlines(d -> d.sessionTimeoutsFromPool(true)
            .idleInTransactionTimeout(java.time.Duration.ofMinutes(2))).build());
    assertMessage("sessionTimeoutsFromPool(true) is for an application's dataSource(...): the pool built from"
        + " jdbcUrl(...) sets the session timeouts on each connection itself", () -> WebhookRuntime.builder()
        .jdbcUrl("jdbc:postgresql://localhost/app").provider(new TestHookAdapter(), Secrets.of("s"))
        .deadlines(d -> d.sessionTimeoutsFromPool(true)).build());
    valid().deadlines(d -> d.sessionTimeoutsFromPool(true).handlerTimeout(java.time.Duration.ofSeconds(10))).build();
  }

  private static WebhookRuntimeBuilder valid() {
    return WebhookRuntime.builder().dataSource(new PGSimpleDataSource()).provider(new TestHookAdapter(), Secrets.of("s"));
  }

  private static void assertMessage(String message, Executable action) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, action);
    assertEquals(message, e.getMessage());
  }
}
