package dev.hookledger.samples.docs;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import org.jooq.DSLContext;

/**
 * The first handler of docs/handlers.md, compiled as written ({@code DocSnippetsTest} checks that the
 * page's block is made of these lines, in this order).
 */
public final class Billing {
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Invoice(String id, String customer, long amountPaid, String currency) {}

  @OnEvent(value = "invoice.paid", provider = "stripe")
  void paid(@Payload("/data/object") Invoice invoice, DSLContext tx) {
    if (!"usd".equals(invoice.currency())) {
      throw new IllegalStateException("invoice " + invoice.id() + " is not in USD");   // rolled back, retried
    }
    tx.execute("""
        INSERT INTO sample.balance (customer, amount_cents) VALUES (?, ?)
        ON CONFLICT (customer) DO UPDATE SET amount_cents = balance.amount_cents + EXCLUDED.amount_cents
        """, invoice.customer(), invoice.amountPaid());
  }
}
