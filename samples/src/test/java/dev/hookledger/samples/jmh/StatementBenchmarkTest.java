package dev.hookledger.samples.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

/** The benchmark's methods render what they say; their speed is never tested here. */
class StatementBenchmarkTest {

  @Test
  void everyBenchmarkMethodRendersItsStatements() throws Exception {
    StatementBenchmark b = new StatementBenchmark();

    assertNotNull(b.renderClaimStatements());
    assertNotNull(b.renderSettleStatements());
    // by hand and by the mapper, the same text, without the signature
    assertEquals(b.headersColumnByMapper(), b.headersColumn());
    assertFalse(b.headersColumn().contains("Signature"), b.headersColumn());
    assertEquals("insert into \"hookledger\".\"event\" (\"provider\", \"scope\", \"event_id\", \"type\") values (?, ?, ?, ?)"
        + " on conflict (\"provider\", \"scope\", \"event_id\") do nothing", b.renderInsertPerCall());
    assertEquals("update \"hookledger\".\"event\" set \"status\" = ?, \"attempts\" = ?, \"max_attempts\" = ?,"
        + " \"settled_at\" = statement_timestamp(), \"last_error\" = ?, \"lease_owner\" = ?,"
        + " \"lease_until\" = cast(? as timestamp with time zone)"
        + " where (\"provider\" = ? and \"scope\" = ? and \"event_id\" = ?)", b.renderInlineSettlePerCall());
  }
}
