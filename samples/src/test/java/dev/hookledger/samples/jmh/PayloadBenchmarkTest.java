package dev.hookledger.samples.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.samples.app.Billing;
import org.junit.jupiter.api.Test;

/** The benchmark's setup is sound (each method reads the same invoice); its speed is never tested here. */
class PayloadBenchmarkTest {

  @Test
  void everyBenchmarkMethodReadsTheSameTwoKilobyteInvoice() throws Exception {
    PayloadBenchmark b = new PayloadBenchmark();
    b.parse();

    assertEquals("evt_jmh_1", b.selectIdentity().path("id").asText());
    assertEquals("in_jmh_1", b.selectIdentity().path("data").path("object").path("id").asText());
    assertEquals(0, b.selectIdentity().path("data").path("object").path("lines").size(), "only the selected members");
    assertEquals("cus_jmh_1", b.readWholeTree().path("data").path("object").path("customer").asText());
    Billing.Invoice expected = new Billing.Invoice("in_jmh_1", "cus_jmh_1", 4200L, "usd");
    int bytes = PayloadBenchmark.stripeInvoiceEvent().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    assertEquals(2336, bytes, "bytes");
    assertEquals(expected, b.mapInvoice());
    assertEquals(expected, b.mapInvoiceCopyingUnknown());
    assertEquals(expected, b.parseAndMapInvoice());
  }
}
