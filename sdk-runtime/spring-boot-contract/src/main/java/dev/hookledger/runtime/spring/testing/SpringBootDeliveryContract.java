package dev.hookledger.runtime.spring.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.EffectHandler;
import dev.hookledger.HttpEffect;
import dev.hookledger.OnEvent;
import dev.hookledger.Outbox;
import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.EffectDetail;
import dev.hookledger.runtime.admin.EventDetail;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.GarbageCollection;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testkit.SignedDeliveries;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A Spring Boot application with hookledger's dependency and three properties, on Tomcat with
 * Spring Security, JPA (so the application's transaction manager is a {@code JpaTransactionManager})
 * and the actuator: deliveries signed by the test provider, posted over real HTTP, reach the
 * application's {@code @OnEvent} beans, whose {@code JdbcTemplate}, JPA and {@code @Transactional}
 * writes commit and roll back with the ledger row.
 *
 * <p>The same for each Boot generation: each starter's test extends it, on that generation's managed
 * versions, and adds what differs (the health indicator's types).
 */
@SpringBootTest(classes = SpringBootDeliveryContract.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
// closed after the class, while the test database answers: left cached to the JVM's exit, Spring's shutdown hook
// closes the runtime while the embedded server's own hook stops PostgreSQL, and the runtime's last statements wait
// out the pool's 30 s connection timeout, until surefire kills the fork (its ".dumpstream" says so) 30 s late
@DirtiesContext
public abstract class SpringBootDeliveryContract {
  private static final String SECRET = "spring-boot-secret";
  private static final TestDatabase.Database DB = TestDatabase.create();

  /** The receipts API the outbox's HTTP effects go to: a real HTTP server recording each request. */
  private static final ReceiptSink RECEIPTS = ReceiptSink.start();

  static {
    // the application's own tables; Boot leaves the schema of a server database alone
    DB.execute("create table paid_order (id text primary key, amount int not null)");
    DB.execute("create table invoice_record (id text primary key, amount bigint not null)");
    DB.execute("create table audit_entry (id text primary key, transaction_name text)");
  }

  @DynamicPropertySource
  static void threeProperties(DynamicPropertyRegistry properties) {
    properties.add("spring.datasource.url", DB::jdbcUrl);
    properties.add("spring.datasource.username", () -> "postgres");
    properties.add("hookledger.providers.testhook.secret", () -> SECRET);
    // a real PostgreSQL is not an embedded database: the ledger's schema is applied only when asked
    properties.add("hookledger.migrate", () -> "always");
    // the outbox's destination, named by the handler's HttpEffect.to("receipts", ...)
    properties.add("hookledger.destinations.receipts.url", RECEIPTS::url);
    properties.add("hookledger.destinations.receipts.idempotency-header", () -> "X-Receipt-Key");
    properties.add("hookledger.destinations.receipts.timeout", () -> "5s");
    properties.add("hookledger.destinations.receipts.max-attempts", () -> "3");
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import({Orders.class, Invoices.class, Accounts.class, AuditService.class, Sessions.class, Receipts.class})
  static class App {
    /** Delivers the typed effect ReceiptMail: its bean name, "mail", is its destination. */
    @org.springframework.context.annotation.Bean
    EffectHandler<ReceiptMail> mail(Mailbox mailbox) {
      return (mail, delivery) -> mailbox.sent.put(mail.invoice(), delivery.idempotencyKey());
    }

    @org.springframework.context.annotation.Bean
    Mailbox mailbox() {
      return new Mailbox();
    }

    /** The application's observation registry, recording the names of the observations stopped in it. */
    @org.springframework.context.annotation.Bean
    ObservationRegistry observationRegistry(ObservedNames names) {
      ObservationRegistry registry = ObservationRegistry.create();
      registry.observationConfig().observationHandler(names);
      return registry;
    }

    @org.springframework.context.annotation.Bean
    ObservedNames observedNames() {
      return new ObservedNames();
    }
  }

  /** Records the name and event id of each observation stopped. */
  static final class ObservedNames implements ObservationHandler<Observation.Context> {
    final java.util.List<String> stopped = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public boolean supportsContext(Observation.Context context) {
      return true;
    }

    @Override
    public void onStop(Observation.Context context) {
      io.micrometer.common.KeyValue id = context.getHighCardinalityKeyValue("hookledger.event.id");
      stopped.add(context.getName() + (id == null ? "" : " " + id.getValue()));
    }
  }

  /** Writes with {@code JdbcTemplate}; fails after writing while {@code failures} is positive. */
  static class Orders {
    final JdbcTemplate jdbc;
    final AtomicInteger failures = new AtomicInteger();

    Orders(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @OnEvent("order.paid")
    public void paid(JsonNode order) {
      jdbc.update("insert into paid_order (id, amount) values (?, ?)", order.get("id").asText(), order.get("amount").asInt());
      if (failures.getAndDecrement() > 0) {
        throw new IllegalStateException("the warehouse API is down");
      }
    }
  }

  /** Writes with JPA, flushed so that its INSERT runs before the failure. */
  static class Invoices {
    @PersistenceContext
    EntityManager entityManager;
    final AtomicInteger failures = new AtomicInteger();

    @OnEvent("invoice.created")
    public void created(JsonNode invoice) {
      entityManager.persist(new InvoiceRecord(invoice.get("id").asText(), invoice.get("amount").asLong()));
      entityManager.flush(); // refused with "no transaction is in progress" unless JPA joined one
      if (failures.getAndDecrement() > 0) {
        throw new IllegalStateException("the mailer is down");
      }
    }
  }

  /** Calls a {@code @Transactional} service. */
  static class Accounts {
    final AuditService audit;
    final AtomicInteger failures = new AtomicInteger();

    Accounts(AuditService audit) {
      this.audit = audit;
    }

    @OnEvent("account.closed")
    public void closed(JsonNode account) {
      audit.record(account.get("id").asText());
      if (failures.getAndDecrement() > 0) {
        throw new IllegalStateException("the CRM is down");
      }
    }
  }

  /** Reads the session's timeouts as a handler's {@code JdbcTemplate} sees them. */
  static class Sessions {
    final JdbcTemplate jdbc;
    volatile String seen;

    Sessions(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @OnEvent("session.checked")
    public void checked() {
      seen = jdbc.queryForObject("select current_setting('statement_timeout') || ' ' || current_setting('lock_timeout')",
          String.class);
    }
  }

  /** A typed effect of the outbox, delivered by the EffectHandler bean "mail". */
  public record ReceiptMail(String invoice) {}

  /** What the "mail" EffectHandler bean delivered: the invoice id, with the effect's idempotency key. */
  static final class Mailbox {
    final Map<String, String> sent = new ConcurrentHashMap<>();
  }

  /** Sends a receipt through the outbox: an HTTP request to the destination "receipts" and a typed e-mail. */
  static class Receipts {
    final JdbcTemplate jdbc;

    Receipts(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @OnEvent("receipt.due")
    public void due(JsonNode invoice, Outbox outbox) {
      String id = invoice.get("id").asText();
      jdbc.update("insert into paid_order (id, amount) values (?, 0)", id);
      outbox.send(HttpEffect.to("receipts", "/receipts").json("{\"invoice\":\"" + id + "\"}").name("receipt").build());
      outbox.send("mail", new ReceiptMail(id));
    }
  }

  /** A service of the application, transactional on its own. */
  public static class AuditService {
    final JdbcTemplate jdbc;

    AuditService(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @Transactional
    public void record(String id) {
      jdbc.update("insert into audit_entry (id, transaction_name) values (?, ?)", id,
          TransactionSynchronizationManager.getCurrentTransactionName());
    }
  }

  @LocalServerPort
  int port;
  @Autowired
  protected WebhookRuntime runtime;
  @Autowired
  JdbcTemplate jdbc;
  @Autowired
  Orders orders;
  @Autowired
  Invoices invoices;
  @Autowired
  Accounts accounts;
  @Autowired
  MeterRegistry meters;
  @Autowired
  org.springframework.context.ApplicationContext context;
  @Autowired
  ObservedNames observed;

  @Test
  void theContextsObservationRegistryObservesProcessingAndEachHandler() {
    assertEquals(200, post("obs-1", "order.paid", "{\"id\":\"obs-1\",\"amount\":1}").status());
    awaitSettled("obs-1");

    Await.until("the handler's and the attempt's observations", () -> observed.stopped.contains("hookledger.handler.run obs-1")
        && observed.stopped.contains("hookledger.event.process obs-1"));
    assertTrue(observed.stopped.contains("hookledger.delivery.receive"), "no receive observation: " + observed.stopped);
  }

  @Test
  void aHandlerBeansOutboxSendsToTheDestinationOfItsPropertiesAndToAnEffectHandlerBean() {
    assertEquals(200, post("rcpt-1", "receipt.due", "{\"id\":\"rcpt-1\"}").status());
    assertEquals(EventStatus.DONE, awaitSettled("rcpt-1").status());

    Await.until("the receipt request and the mail", () -> RECEIPTS.received("rcpt-1") != null
        && context.getBean(Mailbox.class).sent.containsKey("rcpt-1"));
    Map<String, String> keys = new java.util.HashMap<>();
    Await.until("both effects done", () -> {
      keys.clear();
      for (EffectDetail e : runtime.admin().outbox().effectsOf("testhook", "", "rcpt-1")) {
        if (e.summary().status() == EffectStatus.DONE) {
          keys.put(e.summary().destination(), e.summary().idempotencyKey());
        }
      }
      return keys.size() == 2;
    });
    ReceiptSink.Request receipt = RECEIPTS.received("rcpt-1");
    assertEquals("/receipts", receipt.path());
    assertEquals("{\"invoice\":\"rcpt-1\"}", receipt.body());
    // hookledger.destinations.receipts.idempotency-header, and the effect's key in it
    assertEquals(keys.get("receipts"), receipt.idempotencyKey());
    assertEquals(keys.get("mail"), context.getBean(Mailbox.class).sent.get("rcpt-1"));
  }

  @Test
  void signedDeliveryPostedOverHttpRunsTheHandlerBean() {
    SignedDeliveries.Answer answer = post("ord-1", "order.paid", "{\"id\":\"ord-1\",\"amount\":42}");

    assertEquals(200, answer.status(), answer.body());
    assertEquals(EventStatus.DONE, awaitSettled("ord-1").status());
    assertEquals(42, jdbc.queryForObject("select amount from paid_order where id = 'ord-1'", Integer.class));
  }

  @Test
  void jdbcTemplateWriteOfAFailingHandlerRollsBackWithTheLedgerRow() {
    orders.failures.set(1);
    assertEquals(200, post("ord-2", "order.paid", "{\"id\":\"ord-2\",\"amount\":7}").status());

    EventSummary failed = awaitFailedAttempt("ord-2");
    assertEquals(EventStatus.PENDING, failed.status());
    assertEquals(0, count("paid_order", "ord-2"), "the handler's JdbcTemplate insert committed without the ledger row");

    dueNow("ord-2");
    assertEquals(EventStatus.DONE, awaitSettled("ord-2").status());
    assertEquals(1, count("paid_order", "ord-2"));
  }

  @Test
  void duplicateDeliveryLeavesAJpaEntityWrittenOnce() {
    String body = "{\"id\":\"inv-1\",\"amount\":1200}";
    assertEquals(200, post("inv-1", "invoice.created", body).status());
    assertEquals(EventStatus.DONE, awaitSettled("inv-1").status());

    SignedDeliveries.Answer again = post("inv-1", "invoice.created", body);

    assertEquals(200, again.status());
    assertTrue(again.body().startsWith("duplicate"), again.body());
    assertEquals(1, count("invoice_record", "inv-1"));
  }

  @Test
  void jpaEntityOfAFailingHandlerRollsBackWithTheLedgerRow() {
    invoices.failures.set(1);
    assertEquals(200, post("inv-2", "invoice.created", "{\"id\":\"inv-2\",\"amount\":5}").status());

    awaitFailedAttempt("inv-2");
    assertEquals(0, count("invoice_record", "inv-2"), "the flushed JPA insert committed without the ledger row");

    dueNow("inv-2");
    assertEquals(EventStatus.DONE, awaitSettled("inv-2").status());
    assertEquals(1, count("invoice_record", "inv-2"));
  }

  @Test
  void transactionalServiceCalledFromAHandlerJoinsTheLedgerTransaction() {
    assertEquals(200, post("acc-1", "account.closed", "{\"id\":\"acc-1\"}").status());

    assertEquals(EventStatus.DONE, awaitSettled("acc-1").status());
    // REQUIRED joined the transaction hookledger began, rather than beginning one of its own
    assertEquals("hookledger", jdbc.queryForObject("select transaction_name from audit_entry where id = 'acc-1'",
        String.class));
  }

  @Test
  void transactionalServiceWriteOfAFailingHandlerRollsBack() {
    accounts.failures.set(1);
    assertEquals(200, post("acc-2", "account.closed", "{\"id\":\"acc-2\"}").status());

    awaitFailedAttempt("acc-2");
    assertEquals(0, count("audit_entry", "acc-2"), "the @Transactional service committed apart from the ledger row");

    dueNow("acc-2");
    assertEquals(EventStatus.DONE, awaitSettled("acc-2").status());
    assertEquals(1, count("audit_entry", "acc-2"));
  }

  @Test
  void deadlinesAreSetInTheSpringTransaction() {
    assertEquals(200, post("ses-1", "session.checked", "{}").status());

    assertEquals(EventStatus.DONE, awaitSettled("ses-1").status());
    // the runtime's SET LOCAL ran on the connection Spring bound, not on one of its own
    assertEquals("5s 3s", context.getBean(Sessions.class).seen);
  }

  @Test
  void springSecurityRefusesOtherPostsButNotDeliveries() throws Exception {
    HttpResponse<String> other = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders"))
            .POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertTrue(other.statusCode() == 401 || other.statusCode() == 403, "security is not active: " + other.statusCode());

    SignedDeliveries.Answer delivery = post("ord-3", "order.paid", "{\"id\":\"ord-3\",\"amount\":1}");

    assertEquals(200, delivery.status(), delivery.body());
  }

  @Test
  void metersAreRecordedInTheApplicationsRegistry() {
    assertEquals(200, post("ord-4", "order.paid", "{\"id\":\"ord-4\",\"amount\":3}").status());
    awaitSettled("ord-4");

    Counter received = meters.find("hookledger.events.received").tag("provider", "testhook").counter();
    assertTrue(received != null && received.count() >= 1, "no hookledger.events.received counter");
    Await.until("the processed counter", () -> {
      Counter processed = meters.find("hookledger.events.processed").tag("provider", "testhook").counter();
      return processed != null && processed.count() >= 1;
    });
  }

  @Test
  void backlogGaugesReadTheLedgerAfterAGarbageCollection() {
    assertEquals(200, post("gauge-dead", "gauge.unhandled", "{}").status());
    awaitSettled("gauge-dead");
    // only the registry holds the starter's binder: a gauge on a weakly held object reads NaN after this
    GarbageCollection.run();
    // an event that used up its attempts, as the workers would leave it
    jdbc.update("update hookledger.event set status = 'dead' where provider = 'testhook' and event_id = 'gauge-dead'");

    Await.until("the dead gauge reads the dead event", () -> meters.get("hookledger.inbox.dead").gauge().value() >= 1);
    assertFalse(Double.isNaN(meters.get("hookledger.inbox.waiting").gauge().value()), "waiting reads NaN");
    assertFalse(Double.isNaN(meters.get("hookledger.inbox.oldest.waiting").timeGauge().value(TimeUnit.SECONDS)),
        "oldest.waiting reads NaN");
  }

  private SignedDeliveries.Answer post(String id, String type, String body) {
    return SignedDeliveries.post(URI.create("http://127.0.0.1:" + port),
        new TestHookSigner(SECRET).delivery("testhook", id, type, body));
  }

  private EventSummary awaitSettled(String id) {
    Await.until(id + " settled", () -> summary(id) != null && summary(id).status().isSettled());
    return summary(id);
  }

  private EventSummary awaitFailedAttempt(String id) {
    Await.until(id + " failed once", () -> summary(id) != null && summary(id).attempts() == 1
        && summary(id).status() == EventStatus.PENDING);
    return summary(id);
  }

  /** Brings the retry forward from its backoff: the workers' next poll takes it. */
  private void dueNow(String id) {
    jdbc.update("update hookledger.event set available_at = now() where provider = 'testhook' and event_id = ?", id);
  }

  private EventSummary summary(String id) {
    return runtime.admin().show("testhook", "", id).map(EventDetail::summary).orElse(null);
  }

  private int count(String table, String id) {
    return jdbc.queryForObject("select count(*) from " + table + " where id = ?", Integer.class, id);
  }
}
