package dev.hookledger.samples.docs;

import dev.hookledger.HttpEffect;
import dev.hookledger.OnEvent;
import dev.hookledger.Outbox;
import dev.hookledger.Payload;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.stripe.StripeAdapter;
import java.net.URI;
import java.time.Duration;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * The examples of docs/effects.md, compiled: {@code DocSnippetsTest} checks that each marked block of
 * that page is made of these lines, in this order.
 */
final class EffectExamples {
  record Invoice(String id, String customerEmail) {}

  record ReceiptMail(String to, String invoiceId) {}

  /** The application's mail client. */
  interface Mailer {
    void send(String to, String subject, String body, String idempotencyKey);
  }

  /** The application's payments table, as jOOQ's code generator would name it. */
  static final class Payments extends TableImpl<Record> {
    final Field<String> INVOICE = DSL.field(DSL.name("invoice"), SQLDataType.VARCHAR);

    Payments() {
      super(DSL.name("payments"));
    }
  }

  static final Payments PAYMENTS = new Payments();

  private final DataSource dataSource;
  private final String signingSecret;
  private final Mailer mailer;

  EffectExamples(DataSource dataSource, String signingSecret, Mailer mailer) {
    this.dataSource = dataSource;
    this.signingSecret = signingSecret;
    this.mailer = mailer;
  }

  public final class Billing {
    @OnEvent("invoice.paid")
    public void paid(@Payload("/data/object") Invoice invoice, DSLContext tx, Outbox outbox) {
      tx.insertInto(PAYMENTS).set(PAYMENTS.INVOICE, invoice.id()).execute();

      // an HTTP request to the destination "receipts", sent after the commit
      outbox.send(HttpEffect.to("receipts", "/v1/receipts")
          .json("{\"invoice\":\"" + invoice.id() + "\"}")
          .name("receipt")
          .build());

      // a typed effect, delivered to the EffectHandler registered for ReceiptMail
      outbox.send("receipt-mail", new ReceiptMail(invoice.customerEmail(), invoice.id()));
    }
  }

  WebhookRuntime runtime() {
    WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(dataSource)
        .provider(new StripeAdapter(), Secrets.of(signingSecret))
        .handlers(new Billing())
        .destination(Destination.named("receipts")
            .url(URI.create("https://receipts.example.com"))
            .timeout(Duration.ofSeconds(5)))
        .effectHandler("mail", ReceiptMail.class, (mail, delivery) ->
            mailer.send(mail.to(), "Your receipt", body(mail), delivery.idempotencyKey()))
        .build();
    return runtime;
  }

  private static String body(ReceiptMail mail) {
    return "Invoice " + mail.invoiceId() + " is paid.";
  }
}
