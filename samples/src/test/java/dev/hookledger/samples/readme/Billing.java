package dev.hookledger.samples.readme;

import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import org.jooq.DSLContext;

/** The README's opening example, as written (only the package and imports added). */
public class Billing {
  @OnEvent("invoice.paid")
  void paid(@Payload("/data/object") Invoice invoice, DSLContext tx) {   // tx: the transaction that settles the ledger row
    tx.execute("update account set paid = paid + ? where customer = ?", invoice.amount_paid(), invoice.customer());
  }
}
