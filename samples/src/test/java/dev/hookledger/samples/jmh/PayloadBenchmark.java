package dev.hookledger.samples.jmh;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.hookledger.internal.Json;
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
 * it by the reader the runtime prepares at registration ({@code readerFor(type)} without failing on
 * unknown properties), and both at once. Not a test: run it with the command in docs/development.md ("Micro-benchmarks").
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PayloadBenchmark {
  private final ObjectReader invoiceReader = Json.MAPPER.readerFor(Billing.Invoice.class)
      .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private byte[] body;
  private JsonNode tree;

  @Setup
  public void parse() throws IOException {
    body = VerifyBenchmark.stripeEvent(VerifyBenchmark.BODY_BYTES).getBytes(StandardCharsets.UTF_8);
    tree = Json.parse(body);
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

  /** In the worker: the handler's parameter mapped from the tree already parsed. */
  @Benchmark
  public Billing.Invoice mapInvoice() throws IOException {
    return invoiceReader.readValue(tree.at("/data/object"));
  }

  /** In the worker, per event: the tree parsed, then the parameter mapped. */
  @Benchmark
  public Billing.Invoice parseAndMapInvoice() throws IOException {
    return invoiceReader.readValue(Json.parse(body).at("/data/object"));
  }
}
