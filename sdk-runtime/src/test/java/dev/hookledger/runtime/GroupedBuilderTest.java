package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.internal.settings.RuntimeInternals;
import dev.hookledger.runtime.internal.settings.RuntimeSettings;
import dev.hookledger.runtime.internal.settings.SettingsCatalogue;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The builder's groups ({@link Inbox}, {@link Deadlines}, {@link Receive}, {@link OutboxSenders}):
 * their defaults are what the runtime used before them, each setter names its bad value, the
 * deprecated flat setters give the settings the grouped forms give, and between a group's calls the
 * last call wins (a value replaces the group, a change or a shortcut changes its own options).
 */
class GroupedBuilderTest {
  private static final RetryPolicy RETRIES = RetryPolicy.builder().maxAttempts(3).build();

  @Test
  void aFreshBuilderHoldsTheDefaultsTheRuntimeUsedBeforeTheGroups() {
    RuntimeSettings s = settings(WebhookRuntime.builder());
    assertEquals(2, s.inbox().workers());
    assertEquals(16, s.inbox().batchSize());
    assertEquals(Duration.ofSeconds(30), s.inbox().lease());
    assertEquals(Duration.ofSeconds(1), s.inbox().pollInterval());
    assertEquals(Duration.ofSeconds(30), s.inbox().shutdownTimeout());
    assertSame(RetryPolicy.defaults(), s.inbox().retryPolicy());
    assertEquals(Duration.ofSeconds(30), s.inbox().handlerTimeout());
    assertEquals(new dev.hookledger.runtime.internal.Deadlines(Duration.ofSeconds(30), Duration.ofSeconds(5),
        Duration.ofSeconds(3), Duration.ofSeconds(60), Duration.ofSeconds(3), Duration.ofSeconds(6), false),
        s.deadlines());
    assertEquals(2, s.receive().ledgerWriters());
    assertEquals(1024, s.receive().queueCapacity());
    assertEquals(Math.max(1, Runtime.getRuntime().maxMemory() / 4), s.receive().maxInFlightBodyBytes());
    assertEquals(Duration.ofSeconds(5), s.receive().bodyReadTimeout());
    assertEquals(Map.of(), s.receive().maxBodyBytes());
    assertEquals(4, s.outbox().workers());
    assertEquals(Duration.ofSeconds(1), s.outbox().pollInterval());
  }

  @Test
  void eachGroupsDefaultsAreTheBuildersDefaults() {
    RuntimeSettings fresh = settings(WebhookRuntime.builder());
    RuntimeSettings given = settings(WebhookRuntime.builder().inbox(Inbox.defaults()).deadlines(Deadlines.defaults())
        .receive(Receive.defaults()).outbox(OutboxSenders.defaults()));
    assertEquals(fresh, given);
    assertEquals(fresh, settings(WebhookRuntime.builder().inbox(Inbox.builder().build())
        .deadlines(Deadlines.builder().build()).receive(Receive.builder().build())
        .outbox(OutboxSenders.builder().build())));
    assertEquals(fresh, SettingsCatalogue.defaults());
  }

  @Test
  void eachGroupSetterNamesItsBadValue() {
    assertMessage("workers must be between 0 and 256, but was 257", () -> Inbox.builder().workers(257));
    assertMessage("batchSize must be between 1 and 1000, but was 0", () -> Inbox.builder().batchSize(0));
    assertMessage("lease must be >= 1 s, but was PT0.999S", () -> Inbox.builder().lease(Duration.ofMillis(999)));
    assertMessage("pollInterval must be >= 10 ms, but was PT0.009S",
        () -> Inbox.builder().pollInterval(Duration.ofMillis(9)));
    assertMessage("shutdownTimeout must not be negative, but was PT-0.001S",
        () -> Inbox.builder().shutdownTimeout(Duration.ofMillis(-1)));
    assertEquals("retryPolicy", assertThrows(NullPointerException.class, () -> Inbox.builder().retryPolicy(null))
        .getMessage());
    assertMessage("handlerTimeout must be >= 1 ms, but was PT0S",
        () -> Deadlines.builder().handlerTimeout(Duration.ZERO));
    assertMessage("statementTimeout must not be negative, but was PT-1S",
        () -> Deadlines.builder().statementTimeout(Duration.ofSeconds(-1)));
    assertMessage("lockTimeout must not be negative, but was PT-1S",
        () -> Deadlines.builder().lockTimeout(Duration.ofSeconds(-1)));
    assertMessage("idleInTransactionTimeout must not be negative, but was PT-1S",
        () -> Deadlines.builder().idleInTransactionTimeout(Duration.ofSeconds(-1)));
    assertMessage("connectTimeout must be >= 1000 ms, but was PT0.5S",
        () -> Deadlines.builder().connectTimeout(Duration.ofMillis(500)));
    assertMessage("socketTimeout must be >= 1000 ms, but was PT0.5S",
        () -> Deadlines.builder().socketTimeout(Duration.ofMillis(500)));
    assertMessage("ledgerWriters must be between 1 and 16, but was 17", () -> Receive.builder().ledgerWriters(17));
    assertMessage("queueCapacity must be between 1 and 100000, but was 0", () -> Receive.builder().queueCapacity(0));
    assertMessage("maxInFlightBodyBytes must be >= 1, but was 0", () -> Receive.builder().maxInFlightBodyBytes(0));
    assertMessage("bodyReadTimeout must be positive, but was PT0S",
        () -> Receive.builder().bodyReadTimeout(Duration.ZERO));
    assertMessage("outbox workers must be between 0 and 256, but was -1", () -> OutboxSenders.builder().workers(-1));
    assertMessage("outbox pollInterval must be >= 10 ms, but was PT0.001S",
        () -> OutboxSenders.builder().pollInterval(Duration.ofMillis(1)));
  }

  @Test
  void aBadValueInAChangeLeavesTheGroupAsItWas() {
    WebhookRuntimeBuilder b = WebhookRuntime.builder().inbox(i -> i.workers(7));
    assertMessage("batchSize must be between 1 and 1000, but was 0",
        () -> b.inbox(i -> i.lease(Duration.ofMinutes(2)).batchSize(0)));
    assertEquals(7, settings(b).inbox().workers());
    assertEquals(Duration.ofSeconds(30), settings(b).inbox().lease(), "the change is applied whole or not at all");
  }

  @Test
  @SuppressWarnings("deprecation") // the flat setters are what this test compares the groups with
  void eachDeprecatedSetterGivesTheSettingsOfItsGroup() {
    assertSameSettings(b -> b.workers(7), b -> b.inbox(Inbox.builder().workers(7).build()),
        b -> b.inbox(i -> i.workers(7)));
    assertSameSettings(b -> b.batchSize(64), b -> b.inbox(Inbox.builder().batchSize(64).build()),
        b -> b.inbox(i -> i.batchSize(64)));
    assertSameSettings(b -> b.lease(Duration.ofMinutes(2)), b -> b.inbox(Inbox.builder().lease(Duration.ofMinutes(2))
        .build()), b -> b.inbox(i -> i.lease(Duration.ofMinutes(2))));
    assertSameSettings(b -> b.pollInterval(Duration.ofMillis(250)),
        b -> b.inbox(Inbox.builder().pollInterval(Duration.ofMillis(250)).build()),
        b -> b.inbox(i -> i.pollInterval(Duration.ofMillis(250))));
    assertSameSettings(b -> b.shutdownTimeout(Duration.ofSeconds(45)),
        b -> b.inbox(Inbox.builder().shutdownTimeout(Duration.ofSeconds(45)).build()),
        b -> b.inbox(i -> i.shutdownTimeout(Duration.ofSeconds(45))));
    assertSameSettings(b -> b.retryPolicy(RETRIES), b -> b.inbox(Inbox.builder().retryPolicy(RETRIES).build()),
        b -> b.inbox(i -> i.retryPolicy(RETRIES)));
    assertSameSettings(b -> b.handlerTimeout(Duration.ofSeconds(20)),
        b -> b.deadlines(Deadlines.builder().handlerTimeout(Duration.ofSeconds(20)).build()),
        b -> b.deadlines(d -> d.handlerTimeout(Duration.ofSeconds(20))));
    assertSameSettings(b -> b.statementTimeout(Duration.ofSeconds(4)),
        b -> b.deadlines(Deadlines.builder().statementTimeout(Duration.ofSeconds(4)).build()),
        b -> b.deadlines(d -> d.statementTimeout(Duration.ofSeconds(4))));
    assertSameSettings(b -> b.lockTimeout(Duration.ZERO), b -> b.deadlines(Deadlines.builder().lockTimeout(Duration.ZERO)
        .build()), b -> b.deadlines(d -> d.lockTimeout(Duration.ZERO)));
    assertSameSettings(b -> b.idleInTransactionTimeout(Duration.ofSeconds(90)),
        b -> b.deadlines(Deadlines.builder().idleInTransactionTimeout(Duration.ofSeconds(90)).build()),
        b -> b.deadlines(d -> d.idleInTransactionTimeout(Duration.ofSeconds(90))));
    assertSameSettings(b -> b.connectTimeout(Duration.ofSeconds(5)),
        b -> b.deadlines(Deadlines.builder().connectTimeout(Duration.ofSeconds(5)).build()),
        b -> b.deadlines(d -> d.connectTimeout(Duration.ofSeconds(5))));
    assertSameSettings(b -> b.socketTimeout(Duration.ofSeconds(8)),
        b -> b.deadlines(Deadlines.builder().socketTimeout(Duration.ofSeconds(8)).build()),
        b -> b.deadlines(d -> d.socketTimeout(Duration.ofSeconds(8))));
    assertSameSettings(b -> b.sessionTimeoutsFromPool(true),
        b -> b.deadlines(Deadlines.builder().sessionTimeoutsFromPool(true).build()),
        b -> b.deadlines(d -> d.sessionTimeoutsFromPool(true)));
    assertSameSettings(b -> b.ledgerWriters(3), b -> b.receive(Receive.builder().ledgerWriters(3).build()),
        b -> b.receive(r -> r.ledgerWriters(3)));
    assertSameSettings(b -> b.receiveQueueCapacity(512), b -> b.receive(Receive.builder().queueCapacity(512).build()),
        b -> b.receive(r -> r.queueCapacity(512)));
    assertSameSettings(b -> b.maxInFlightBodyBytes(64L << 20),
        b -> b.receive(Receive.builder().maxInFlightBodyBytes(64L << 20).build()),
        b -> b.receive(r -> r.maxInFlightBodyBytes(64L << 20)));
    assertSameSettings(b -> b.bodyReadTimeout(Duration.ofSeconds(3)),
        b -> b.receive(Receive.builder().bodyReadTimeout(Duration.ofSeconds(3)).build()),
        b -> b.receive(r -> r.bodyReadTimeout(Duration.ofSeconds(3))));
    assertSameSettings(b -> b.outboxWorkers(8), b -> b.outbox(OutboxSenders.builder().workers(8).build()),
        b -> b.outbox(o -> o.workers(8)));
    assertSameSettings(b -> b.outboxPollInterval(Duration.ofMillis(500)),
        b -> b.outbox(OutboxSenders.builder().pollInterval(Duration.ofMillis(500)).build()),
        b -> b.outbox(o -> o.pollInterval(Duration.ofMillis(500))));
  }

  @Test
  @SuppressWarnings("deprecation") // the flat setters' messages, as before the groups
  void theDeprecatedSettersNameTheirBadValuesAsTheGroupsDo() {
    assertMessage("workers must be between 0 and 256, but was -1", () -> WebhookRuntime.builder().workers(-1));
    assertMessage("queueCapacity must be between 1 and 100000, but was 0",
        () -> WebhookRuntime.builder().receiveQueueCapacity(0));
    assertMessage("outbox workers must be between 0 and 256, but was 257",
        () -> WebhookRuntime.builder().outboxWorkers(257));
    assertMessage("handlerTimeout must be >= 1 ms, but was PT0S",
        () -> WebhookRuntime.builder().handlerTimeout(Duration.ZERO));
  }

  @Test
  @SuppressWarnings("deprecation") // a shortcut after a group value
  void aShortcutAfterAGroupValueChangesItsOneOption() {
    RuntimeSettings s = settings(WebhookRuntime.builder()
        .inbox(Inbox.builder().lease(Duration.ofMinutes(2)).batchSize(64).build())
        .workers(7));
    assertEquals(7, s.inbox().workers());
    assertEquals(Duration.ofMinutes(2), s.inbox().lease());
    assertEquals(64, s.inbox().batchSize());
  }

  @Test
  @SuppressWarnings("deprecation") // a group value after a shortcut
  void aGroupValueAfterAShortcutReplacesTheWholeGroup() {
    RuntimeSettings s = settings(WebhookRuntime.builder()
        .workers(7).handlerTimeout(Duration.ofSeconds(20))
        .inbox(Inbox.builder().lease(Duration.ofMinutes(2)).build()));
    assertEquals(2, s.inbox().workers(), "the value's default, not the shortcut's 7: the last call wins");
    assertEquals(Duration.ofMinutes(2), s.inbox().lease());
    assertEquals(Duration.ofSeconds(20), s.deadlines().handler(), "another group is left alone");
  }

  @Test
  void aChangeKeepsTheGroupsOtherOptionsAndAValueAfterItReplacesThem() {
    WebhookRuntimeBuilder b = WebhookRuntime.builder()
        .inbox(Inbox.builder().lease(Duration.ofMinutes(2)).build())
        .inbox(i -> i.workers(7))
        .inbox(i -> i.workers(8).batchSize(64));
    assertEquals(8, settings(b).inbox().workers());
    assertEquals(64, settings(b).inbox().batchSize());
    assertEquals(Duration.ofMinutes(2), settings(b).inbox().lease());
    b.inbox(Inbox.builder().pollInterval(Duration.ofMillis(250)).build());
    assertEquals(Inbox.defaults().workers(), settings(b).inbox().workers());
    assertEquals(Inbox.defaults().lease(), settings(b).inbox().lease());
    assertEquals(Duration.ofMillis(250), settings(b).inbox().pollInterval());
  }

  @Test
  void aDoorChangesOnlyTheOptionsItGivesInTheGroupsTheBuilderHolds() {
    WebhookRuntimeBuilder b = WebhookRuntime.builder()
        .inbox(i -> i.workers(7).retryPolicy(RETRIES))
        .receive(r -> r.ledgerWriters(3));
    SettingsCatalogue.applyText(b, SettingsCatalogue.textsOf(Map.of("lease", "2m", "retry.jitter", "0",
        "receive-queue-capacity", "512", "outbox-workers", "0")), key -> key);
    RuntimeSettings s = settings(b);
    assertEquals(7, s.inbox().workers());
    assertEquals(Duration.ofMinutes(2), s.inbox().lease());
    assertEquals(3, s.inbox().retryPolicy().maxAttempts(), "the retry options over the builder's policy");
    assertEquals(0.0, s.inbox().retryPolicy().jitter());
    assertEquals(3, s.receive().ledgerWriters());
    assertEquals(512, s.receive().queueCapacity());
    assertEquals(0, s.outbox().workers());
  }

  @Test
  void toBuilderStartsFromTheValue() {
    Inbox inbox = Inbox.builder().workers(7).batchSize(64).lease(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(250)).shutdownTimeout(Duration.ofSeconds(45)).retryPolicy(RETRIES).build();
    assertEquals(inbox.toString(), inbox.toBuilder().build().toString());
    assertEquals("Inbox[workers=7, batchSize=64, lease=PT2M, pollInterval=PT0.25S, shutdownTimeout=PT45S, retryPolicy="
        + RETRIES + "]", inbox.toString());
    Deadlines deadlines = Deadlines.builder().handlerTimeout(Duration.ofSeconds(20)).statementTimeout(Duration.ZERO)
        .lockTimeout(Duration.ofSeconds(2)).idleInTransactionTimeout(Duration.ofSeconds(90))
        .connectTimeout(Duration.ofSeconds(5)).socketTimeout(Duration.ofSeconds(8)).sessionTimeoutsFromPool(true)
        .build();
    assertEquals(deadlines.toString(), deadlines.toBuilder().build().toString());
    Receive receive = Receive.builder().ledgerWriters(3).queueCapacity(512).maxInFlightBodyBytes(1 << 20)
        .bodyReadTimeout(Duration.ofSeconds(3)).build();
    assertEquals("Receive[ledgerWriters=3, queueCapacity=512, maxInFlightBodyBytes=1048576, bodyReadTimeout=PT3S]",
        receive.toBuilder().build().toString());
    OutboxSenders outbox = OutboxSenders.builder().workers(0).pollInterval(Duration.ofMillis(500)).build();
    assertEquals("OutboxSenders[workers=0, pollInterval=PT0.5S]", outbox.toBuilder().build().toString());
  }

  @Test
  void howAGroupsDeadlinesFitTogetherIsCheckedByBuild() {
    Deadlines longHandlers = Deadlines.builder().handlerTimeout(Duration.ofMinutes(1)).build();
    assertMessage("idleInTransactionTimeout (PT1M) must be longer than handlerTimeout (PT1M), so that the server never"
        + " ends a transaction whose handler is within its time", () -> valid().deadlines(longHandlers).build());
    assertMessage("statementTimeout (PT4S) is not applied with sessionTimeoutsFromPool(true): set statement_timeout on"
        + " the pool's connections instead", () -> valid().deadlines(Deadlines.builder().sessionTimeoutsFromPool(true)
        .statementTimeout(Duration.ofSeconds(4)).build()).build());
  }

  private static void assertSameSettings(UnaryOperator<WebhookRuntimeBuilder> flat,
      UnaryOperator<WebhookRuntimeBuilder> value, UnaryOperator<WebhookRuntimeBuilder> change) {
    RuntimeSettings expected = settings(flat.apply(WebhookRuntime.builder()));
    assertEquals(expected, settings(value.apply(WebhookRuntime.builder())));
    assertEquals(expected, settings(change.apply(WebhookRuntime.builder())));
    assertNotDefault(expected);
  }

  private static void assertNotDefault(RuntimeSettings s) {
    if (s.equals(SettingsCatalogue.defaults())) {
      throw new AssertionError("the value compared is the default: the comparison would prove nothing");
    }
  }

  private static RuntimeSettings settings(WebhookRuntimeBuilder b) {
    return RuntimeInternals.settings(b);
  }

  private static WebhookRuntimeBuilder valid() {
    return WebhookRuntime.builder().dataSource(new PGSimpleDataSource())
        .provider(new TestHookAdapter(), Secrets.of("s"));
  }

  private static void assertMessage(String message, Executable action) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, action);
    assertEquals(message, e.getMessage());
  }
}
