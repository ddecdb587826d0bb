package dev.hookledger.stripe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.stripe.model.Charge;
import com.stripe.model.Event;
import com.stripe.model.Invoice;
import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.HandlerFailedException;
import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * stripe-java's own types as handler parameters, read by stripe-java's deserializer as
 * {@code Webhook.constructEvent} reads them: {@code Event} for the whole event, a {@code StripeObject}
 * subclass for its {@code data.object}, or either under a {@code @Payload} pointer.
 */
class StripeJavaParametersTest {
  static final TestHookSigner SIGNER = new TestHookSigner("stripe-java-secret");
  static final String NAME = StripeJavaParametersTest.class.getName();
  static final String INVOICE_PAID = """
      {"id":"evt_sj1","object":"event","api_version":"2025-03-31.basil","created":1717243200,"livemode":false,
       "type":"invoice.paid","data":{"object":{"id":"in_sj1","object":"invoice","customer":"cus_ada",
       "amount_paid":4200,"currency":"usd","status":"paid"}}}""";
  static final String OLDER_API = INVOICE_PAID.replace("2025-03-31.basil", "2020-08-27");
  static TestDatabase.Database db;
  WebhookRuntime runtime;

  @BeforeAll
  static void database() {
    db = TestDatabase.create();
  }

  @AfterEach
  void close() {
    if (runtime != null) {
      runtime.close();
    }
  }

  @Test
  void theEventAndItsDataObjectAreStripeJavasOwnTypes() {
    StripeHandler handler = new StripeHandler();
    start("sj_types", handler);

    receive("evt_sj1", INVOICE_PAID);
    receive("evt_sj2", OLDER_API.replace("evt_sj1", "evt_sj2"));

    assertEquals(List.of(
        "evt_sj1 invoice.paid", "in_sj1 cus_ada 4200", "in_sj1 usd",
        "evt_sj2 invoice.paid", "in_sj1 cus_ada 4200", "in_sj1 usd"), handler.seen);
  }

  @Test
  void aDataObjectOfAnotherTypeFailsNamingBoth() {
    start("sj_wrong", new ChargeHandler());

    HandlerFailedException e = assertThrows(HandlerFailedException.class, () -> receive("evt_sj3", INVOICE_PAID));
    assertEquals("@OnEvent method 'void " + NAME + "$ChargeHandler.charged(Charge)' failed on testhook event evt_sj3"
        + " invoice.paid: parameter 1 (Charge): the data.object is of type Invoice, not Charge", e.getMessage());
  }

  @Test
  void anExplicitNullUnderAPointerIsNullAndNothingThereFails() {
    List<String> seen = new CopyOnWriteArrayList<>();
    start("sj_null", new Object() {
      @OnEvent("invoice.paid")
      void paid(@Payload("/data/object/discount") com.stripe.model.Discount discount) {
        seen.add(String.valueOf(discount));
      }
    });

    receive("evt_sj4", INVOICE_PAID.replace("evt_sj1", "evt_sj4").replace("\"status\":\"paid\"",
        "\"status\":\"paid\",\"discount\":null"));
    assertEquals(List.of("null"), seen);
    HandlerFailedException e = assertThrows(HandlerFailedException.class,
        () -> receive("evt_sj5", INVOICE_PAID.replace("evt_sj1", "evt_sj5")));
    assertEquals(true, e.getMessage().endsWith("parameter 1 (Discount): nothing is at /data/object/discount in the"
        + " payload; if it may be absent, make the parameter Optional or mark it @Nullable"), e.getMessage());
  }

  private void start(String schema, Object handler) {
    runtime = WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema(schema)
        .provider(new TestHookAdapter(), Secrets.of("stripe-java-secret"))
        .handlers(handler)
        .mode(ProcessingMode.INLINE)
        .build();
    runtime.migrate();
    runtime.start();
  }

  private void receive(String id, String body) {
    assertEquals(Receipt.Outcome.PROCESSED,
        runtime.receive("testhook", SIGNER.delivery("testhook", id, "invoice.paid", body)).outcome());
  }

  static final class StripeHandler {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @OnEvent("invoice.paid")
    void paid(Event event, Invoice invoice, @Payload("/data/object") Invoice pointed) {
      seen.add(event.getId() + " " + event.getType());
      seen.add(invoice.getId() + " " + invoice.getCustomer() + " " + invoice.getAmountPaid());
      seen.add(pointed.getId() + " " + pointed.getCurrency());
    }
  }

  static final class ChargeHandler {
    @OnEvent("invoice.paid")
    void charged(Charge charge) {}
  }
}
