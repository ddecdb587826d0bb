package dev.hookledger.samples.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The benchmark's setup is sound (each method verifies its 2 KB event); its speed is never tested here. */
class VerifyBenchmarkTest {

  @Test
  void everyBenchmarkMethodVerifiesTheSameTwoKilobyteEvent() throws Exception {
    VerifyBenchmark b = new VerifyBenchmark();
    b.sign();

    assertTrue(b.bodyBytes() >= VerifyBenchmark.BODY_BYTES && b.bodyBytes() < VerifyBenchmark.BODY_BYTES + 200,
        "body of " + b.bodyBytes() + " bytes");
    assertEquals("evt_jmh_1", b.stripeJavaConstructEvent().getId());
    assertEquals("evt_jmh_1", b.hookledgerStripe().eventId());
    assertEquals("push", b.hookledgerGitHub().type());
    assertEquals("orders/create", b.hookledgerShopify().type());
  }
}
