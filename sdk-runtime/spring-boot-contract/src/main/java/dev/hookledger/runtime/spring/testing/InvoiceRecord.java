package dev.hookledger.runtime.spring.testing;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A JPA entity a handler writes, for {@link SpringBootDeliveryContract}. */
@Entity
@Table(name = "invoice_record")
class InvoiceRecord {
  @Id
  private String id;
  private long amount;

  protected InvoiceRecord() {}

  InvoiceRecord(String id, long amount) {
    this.id = id;
    this.amount = amount;
  }
}
