package dev.hookledger.samples.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.stripe.StripeAdapter;
import dev.hookledger.stripe.StripeTestSigner;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * The README's opening example ({@link Billing}, {@link Invoice}) runs as written against real
 * Stripe-signed deliveries and books the payment once; the same handler without {@code @Payload},
 * the mistake the example once made, fails loudly and ends {@code dead} instead of settling
 * {@code done} after updating nothing.
 */
class OpeningExampleTest {
  private static final String SECRET = "whsec_readme_0123456789abcdef0123456789";

  @Test
  void theOpeningExampleBooksAPaidInvoiceOnce() {
    TestDatabase.Database db = TestDatabase.create();
    db.execute("create table account (customer text primary key, paid bigint not null default 0)");
    db.execute("insert into account (customer) values ('cus_ada')");
    try (WebhookRuntime runtime = runtime(db, new Billing())) {
      String body = SampleEvents.invoicePaid("evt_readme_1", "in_1", "cus_ada", 4200, "usd", Instant.now());
      StripeTestSigner stripe = StripeTestSigner.withSecrets(SECRET);

      assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive("stripe", stripe.delivery(body, Instant.now())).outcome());
      assertEquals(Receipt.Outcome.DUPLICATE, runtime.receive("stripe", stripe.delivery(body, Instant.now())).outcome());

      Await.until("evt_readme_1 done", () -> "done".equals(status(db, "evt_readme_1")));
      assertEquals(4200, LedgerRows.number(db.dataSource(), "select paid from account where customer = 'cus_ada'"));
    }
  }

  @Test
  void withoutPayloadTheEnvelopeIsRefusedAndTheEventEndsDead() {
    TestDatabase.Database db = TestDatabase.create();
    db.execute("create table account (customer text primary key, paid bigint not null default 0)");
    db.execute("insert into account (customer) values ('cus_ada')");
    try (WebhookRuntime runtime = runtime(db, new EnvelopeBilling())) {
      String body = SampleEvents.invoicePaid("evt_readme_2", "in_2", "cus_ada", 4200, "usd", Instant.now());
      runtime.receive("stripe", StripeTestSigner.withSecrets(SECRET).delivery(body, Instant.now()));

      Await.until("evt_readme_2 dead", () -> "dead".equals(status(db, "evt_readme_2")));
      String error = (String) row(db, "evt_readme_2").get("last_error");
      assertTrue(error.startsWith("@OnEvent method 'void " + EnvelopeBilling.class.getName() + ".paid(Invoice, DSLContext)'"
          + " failed on stripe event evt_readme_2 invoice.paid: parameter 1 (Invoice): required property 'customer'"
          + " of Invoice is absent at /customer; to map a part of the payload, name it with @Payload (the object inside an event's envelope:"
          + " @Payload(\"/data/object\"), say)"), error);
      assertEquals(0, LedgerRows.number(db.dataSource(), "select paid from account where customer = 'cus_ada'"));
    }
  }

  private static WebhookRuntime runtime(TestDatabase.Database db, Object handler) {
    WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .provider(new StripeAdapter(), Secrets.of(SECRET))
        .handlers(handler)
        .inbox(i -> i.retryPolicy(RetryPolicy.builder().firstDelay(Duration.ofMillis(20)).factor(1).maxAttempts(2).jitter(0).build()))
        .build();
    runtime.migrate();
    runtime.start();
    return runtime;
  }

  private static String status(TestDatabase.Database db, String id) {
    return LedgerRows.event(db.dataSource(), "hookledger", id).map(r -> (String) r.get("status")).orElse("absent");
  }

  private static Map<String, Object> row(TestDatabase.Database db, String id) {
    return LedgerRows.event(db.dataSource(), "hookledger", id).orElseThrow();
  }

  /** The mistake the README once printed: the envelope mapped to the invoice. */
  public static class EnvelopeBilling {
    @OnEvent("invoice.paid")
    void paid(Invoice invoice, DSLContext tx) {
      tx.execute("update account set paid = paid + ? where customer = ?", invoice.amount_paid(), invoice.customer());
    }
  }
}
