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
  // written by JPA into the row the contract counts; nothing in Java reads it back
  @SuppressWarnings("UnusedVariable")
  private long amount;

  protected InvoiceRecord() {}

  InvoiceRecord(String id, long amount) {
    this.id = id;
    this.amount = amount;
  }
}
