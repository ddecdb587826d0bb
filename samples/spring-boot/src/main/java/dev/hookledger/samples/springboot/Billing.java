package dev.hookledger.samples.springboot;

import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A handler bean: its {@code JdbcTemplate} writes in the transaction that settles the event's ledger
 * row, so a duplicate delivery never pays twice and a failure rolls both back.
 */
@Component
public class Billing {
  /** The fields of Stripe's invoice this handler needs; an absent one fails the attempt, naming it. */
  public record Invoice(String customer, long amount_paid) {}

  private final JdbcTemplate jdbc;

  public Billing(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  @OnEvent("invoice.paid")
  public void paid(@Payload("/data/object") Invoice invoice) {
    jdbc.update("update account set paid = paid + ? where customer = ?", invoice.amount_paid(), invoice.customer());
  }
}
