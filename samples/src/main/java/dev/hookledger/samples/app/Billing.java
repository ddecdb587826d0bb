package dev.hookledger.samples.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.HttpEffect;
import dev.hookledger.OnEvent;
import dev.hookledger.Outbox;
import dev.hookledger.Payload;
import java.util.Locale;
import org.jooq.DSLContext;
import org.jspecify.annotations.Nullable;

/**
 * Stripe invoices: {@code invoice.paid} adds the amount paid to the customer's balance.
 *
 * <p>Deliberately not idempotent: run twice for one event, it books the payment twice. The ledger
 * runs it once per event id, in the transaction that settles the event, so the balance is right
 * however often Stripe delivers.
 *
 * <p>Balances are kept in US cents. An invoice this sample cannot book throws with a one-line
 * business reason: one in another currency, one with no customer (Stripe sends {@code customer:
 * null} for some one-off invoices), one without {@code amount_paid} (API versions from before Stripe
 * added it). The transaction rolls back, the event is retried with backoff and, when its attempts
 * run out, is kept as {@code dead} for an operator (the demo uses this as its poison event).
 *
 * <p>Given a receipts path, each booked invoice also sends a receipt through the outbox: a POST of
 * {@code {"invoice": id, "customer": ..., "amountPaid": ...}} to that path under the destination
 * {@value #RECEIPTS}, committed with the booking and sent after the commit, at least once, with the
 * same {@code Idempotency-Key} on every try.
 */
public final class Billing {
  /** The outbox destination receipts go to; its URL is the runtime's {@code Destination} of that name. */
  public static final String RECEIPTS = "receipts";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final HandlerStatement BOOK = new HandlerStatement("""
      INSERT INTO sample.balance (customer, amount_cents) VALUES (?, ?)
      ON CONFLICT (customer) DO UPDATE SET amount_cents = balance.amount_cents + EXCLUDED.amount_cents
      """);

  /**
   * A Stripe invoice, as far as this sample needs it ({@code amount_paid} in the smallest unit).
   * Stripe sends nullable fields as explicit {@code null}; old API versions lack {@code amount_paid}.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Invoice(String id, @Nullable String customer, @Nullable Long amountPaid, String currency) {}

  private final @Nullable String receiptPath;

  /** Books invoices and sends no receipt. */
  public Billing() {
    this(null);
  }

  /**
   * Books invoices and, if {@code receiptPath} is not null, sends a receipt for each to that path
   * (starting with {@code /}) under the destination {@value #RECEIPTS}.
   */
  public Billing(@Nullable String receiptPath) {
    this.receiptPath = receiptPath;
  }

  @OnEvent(value = "invoice.paid", provider = "stripe")
  void paid(@Payload("/data/object") Invoice invoice, DSLContext tx, Outbox outbox) {
    book(invoice, tx);
    if (receiptPath != null) {
      ObjectNode receipt = JSON.createObjectNode().put("invoice", invoice.id()).put("customer", invoice.customer())
          .put("amountPaid", invoice.amountPaid());
      outbox.send(HttpEffect.to(RECEIPTS, receiptPath).json(receipt.toString()).name("receipt").build());
    }
  }

  /** Adds the amount paid to the customer's balance, or throws with the business reason it cannot. */
  void book(Invoice invoice, DSLContext tx) {
    if (!"usd".equals(invoice.currency())) {
      throw new IllegalStateException("invoice " + invoice.id() + " is in "
          + String.valueOf(invoice.currency()).toUpperCase(Locale.ROOT)
          + "; this sample keeps balances in USD only");
    }
    if (invoice.customer() == null) {
      throw new IllegalStateException("invoice " + invoice.id() + " has no customer; this sample keeps balances per"
          + " customer only");
    }
    if (invoice.amountPaid() == null) {
      throw new IllegalStateException("invoice " + invoice.id() + " has no amount_paid (an API version before it"
          + " existed); this sample books amount_paid only");
    }
    BOOK.execute(tx, invoice.customer(), invoice.amountPaid());
  }
}
