package dev.hookledger.samples.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.stripe.exception.SignatureVerificationException;
import com.stripe.model.Event;
import com.stripe.net.Webhook;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.github.GitHubAdapter;
import dev.hookledger.github.GitHubTestSigner;
import dev.hookledger.shopify.ShopifyAdapter;
import dev.hookledger.shopify.ShopifyTestSigner;
import dev.hookledger.stripe.StripeAdapter;
import dev.hookledger.stripe.StripeTestSigner;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
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
 * Verify-and-parse of one 2 KB event: each adapter on its own provider's signature of it, against
 * stripe-java's {@code Webhook.constructEvent} (HMAC check, then Gson parsing into {@code Event}).
 * Not a test: run it with the command in docs/development.md ("Micro-benchmarks").
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VerifyBenchmark {
  static final String SECRET = "whsec_jmh_0123456789abcdef0123456789abcdef";
  static final int BODY_BYTES = 2048;

  private final Clock clock = Clock.systemUTC();
  private final StripeAdapter stripe = new StripeAdapter();
  private final GitHubAdapter github = new GitHubAdapter();
  private final ShopifyAdapter shopify = new ShopifyAdapter();
  private final Secrets secrets = Secrets.of(SECRET);
  private String body;
  private String stripeHeader;
  private InboundDelivery stripeDelivery;
  private InboundDelivery githubDelivery;
  private InboundDelivery shopifyDelivery;

  /** A Stripe {@code invoice.paid} event padded with line items to 2 KB, signed now. */
  @Setup
  public void sign() {
    body = stripeEvent(BODY_BYTES);
    Instant now = Instant.now();
    StripeTestSigner stripeSigner = StripeTestSigner.withSecrets(SECRET);
    stripeHeader = stripeSigner.signatureHeader(body, now);
    stripeDelivery = stripeSigner.delivery(body, now);
    githubDelivery = GitHubTestSigner.withSecret(SECRET).delivery("push", body);
    shopifyDelivery = ShopifyTestSigner.withSecret(SECRET).delivery("orders/create", body);
  }

  static String stripeEvent(int size) {
    ObjectMapper json = new ObjectMapper();
    ObjectNode event = json.createObjectNode().put("id", "evt_jmh_1").put("object", "event")
        .put("api_version", "2024-06-20").put("created", 1_700_000_000L).put("livemode", false)
        .put("type", "invoice.paid").put("pending_webhooks", 1);
    ObjectNode invoice = event.putObject("data").putObject("object").put("id", "in_jmh_1").put("object", "invoice")
        .put("customer", "cus_jmh_1").put("amount_paid", 4200).put("currency", "usd").put("status", "paid");
    var lines = invoice.putObject("lines").put("object", "list").putArray("data");
    for (int i = 0; json.createObjectNode().set("e", event).toString().length() < size; i++) {
      lines.addObject().put("id", "il_jmh_" + i).put("object", "line_item").put("amount", 100 + i)
          .put("description", "1 x hookledger seat (at $1.00 / month)");
    }
    return event.toString();
  }

  @Benchmark
  public Event stripeJavaConstructEvent() throws SignatureVerificationException {
    return Webhook.constructEvent(body, stripeHeader, SECRET);
  }

  @Benchmark
  public WebhookEvent hookledgerStripe() {
    return stripe.verify(stripeDelivery, secrets, clock);
  }

  @Benchmark
  public WebhookEvent hookledgerGitHub() {
    return github.verify(githubDelivery, secrets, clock);
  }

  @Benchmark
  public WebhookEvent hookledgerShopify() {
    return shopify.verify(shopifyDelivery, secrets, clock);
  }

  /** The body's size, to check the comparison is on 2 KB. */
  int bodyBytes() {
    return body.getBytes(StandardCharsets.UTF_8).length;
  }
}
