package dev.hookledger.samples.jmh;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.internal.dispatch.UnknownPropertySkipping;
import dev.hookledger.samples.app.Billing;
import dev.hookledger.spi.json.JsonSelection;
import dev.hookledger.stripe.StripeAdapter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The payload path of one 2 KB Stripe {@code invoice.paid} event ({@link VerifyBenchmark}'s): at the
 * door, the members an adapter reads to identify it ({@link JsonSelection}, the Stripe adapter's
 * {@link StripeAdapter#identitySelection()}) beside Jackson's whole tree; in the worker, the whole
 * tree parsed once per event, then the handler's {@code @Payload("/data/object") Invoice} mapped from
 * it (a 2.3 KB event, its invoice with Stripe's members in Stripe's order: {@link #stripeInvoiceEvent}) by the
 * reader the runtime prepares at registration ({@code readerFor(type)} without failing on
 * unknown properties, from {@link UnknownPropertySkipping}'s copy of the mapper, which skips an
 * unknown property whole), beside the same reader from the mapper alone (each unknown property of the
 * record's creator copied into a buffer, then dropped), and both at once. Not a test: run it with the
 * command in docs/development.md ("Micro-benchmarks").
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PayloadBenchmark {
  private final ObjectReader invoiceReader = UnknownPropertySkipping.mapperFor(Json.MAPPER)
      .readerFor(Billing.Invoice.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private final ObjectReader copyingReader = Json.MAPPER.readerFor(Billing.Invoice.class)
      .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private byte[] body;
  private byte[] invoiceBody;
  private JsonNode invoiceTree;

  @Setup
  public void parse() throws IOException {
    body = VerifyBenchmark.stripeEvent(VerifyBenchmark.BODY_BYTES).getBytes(StandardCharsets.UTF_8);
    invoiceBody = stripeInvoiceEvent().getBytes(StandardCharsets.UTF_8);
    invoiceTree = Json.parse(invoiceBody);
  }

  /**
   * A 2.3 KB {@code invoice.paid} event whose invoice has Stripe's members in Stripe's order ({@code id},
   * {@code object}, then by name): the mapped record's last creator property ({@code customer}) comes
   * after 16 members it does not name, which Jackson must hold until the creator can run.
   */
  static String stripeInvoiceEvent() {
    StringBuilder invoice = new StringBuilder("{\"id\":\"in_jmh_1\",\"object\":\"invoice\",\"account_country\":\"US\","
        + "\"account_name\":\"hookledger\",\"account_tax_ids\":null,\"amount_due\":4200,\"amount_paid\":4200,"
        + "\"amount_remaining\":0,\"amount_shipping\":0,\"application\":null,\"attempt_count\":1,\"attempted\":true,"
        + "\"auto_advance\":false,\"automatic_tax\":{\"enabled\":false,\"liability\":null,\"status\":null},"
        + "\"billing_reason\":\"subscription_cycle\",\"collection_method\":\"charge_automatically\",\"created\":1714566000,"
        + "\"currency\":\"usd\",\"custom_fields\":null,\"customer\":\"cus_jmh_1\",\"customer_address\":null,"
        + "\"customer_email\":\"ada@example.com\",\"customer_name\":\"Ada\",\"customer_tax_exempt\":\"none\","
        + "\"default_payment_method\":null,\"description\":null,\"discounts\":[],\"due_date\":null,"
        + "\"hosted_invoice_url\":\"https://invoice.stripe.com/i/acct_1/test_1\",\"lines\":{\"object\":\"list\",\"data\":[");
    for (int i = 0; i < 6; i++) {
      invoice.append(i == 0 ? "" : ",").append("{\"id\":\"il_jmh_").append(i)
          .append("\",\"object\":\"line_item\",\"amount\":").append(700)
          .append(",\"currency\":\"usd\",\"description\":\"1 x hookledger seat (at $7.00 / month)\",")
          .append("\"period\":{\"end\":1717244400,\"start\":1714566000},\"quantity\":1}");
    }
    invoice.append("],\"has_more\":false,\"total_count\":6},\"livemode\":false,\"metadata\":{},\"number\":\"HL-0001\","
        + "\"paid\":true,\"period_end\":1714566000,\"period_start\":1711887600,\"status\":\"paid\","
        + "\"status_transitions\":{\"finalized_at\":1714569600,\"paid_at\":1714569660,\"voided_at\":null},"
        + "\"subtotal\":4200,\"tax\":null,\"total\":4200}");
    return "{\"id\":\"evt_jmh_1\",\"object\":\"event\",\"api_version\":\"2024-06-20\",\"created\":1714569660,"
        + "\"data\":{\"object\":" + invoice + "},\"livemode\":false,\"pending_webhooks\":1,\"type\":\"invoice.paid\"}";
  }

  /** At the door: only the identifying members, as the Stripe adapter reads them. */
  @Benchmark
  public JsonNode selectIdentity() throws IOException {
    return StripeAdapter.identitySelection().read(body);
  }

  /** At the door, the other way: Jackson's whole tree. */
  @Benchmark
  public JsonNode readWholeTree() throws IOException {
    return Json.parse(body);
  }

  /** In the worker: the handler's parameter mapped from the tree already parsed, unknown properties skipped. */
  @Benchmark
  public Billing.Invoice mapInvoice() throws IOException {
    return invoiceReader.readValue(invoiceTree.at("/data/object"));
  }

  /** The same with the mapper alone, as the runtime read it before: each unknown property copied, then dropped. */
  @Benchmark
  public Billing.Invoice mapInvoiceCopyingUnknown() throws IOException {
    return copyingReader.readValue(invoiceTree.at("/data/object"));
  }

  /** In the worker, per event: the tree parsed, then the parameter mapped. */
  @Benchmark
  public Billing.Invoice parseAndMapInvoice() throws IOException {
    return invoiceReader.readValue(Json.parse(invoiceBody).at("/data/object"));
  }
}
