package dev.hookledger.samples.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testkit.SignedDeliveries;
import dev.hookledger.samples.testing.ChildJvm;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.stripe.StripeTestSigner;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/getting-started.md's servlet application, {@link App}, runs as a user runs it: its own JVM, its
 * configuration in environment variables, a Stripe-signed delivery over HTTP booked once; and with
 * the secret unset, it stops at start-up naming the variable.
 */
class GettingStartedTest {
  private static final String SECRET = "whsec_getting_started_0123456789abcdef";

  @TempDir Path dir;

  @Test
  void theAppBooksAStripeSignedInvoiceOnceOverHttp() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    db.execute("create table account (customer text primary key, paid bigint not null default 0)");
    db.execute("insert into account (customer) values ('cus_ada')");
    try (ChildJvm app = ChildJvm.start(App.class, List.of(), Map.of("DATABASE_URL", db.jdbcUrl(),
        "STRIPE_WEBHOOK_SECRET", SECRET, "PORT", Integer.toString(freePort())), dir)) {
      URI base = URI.create(app.awaitLine("listening on "));
      String body = SampleEvents.invoicePaid("evt_gs_1", "in_gs_1", "cus_ada", 4200, "usd", Instant.now());
      StripeTestSigner stripe = StripeTestSigner.withSecrets(SECRET);

      assertEquals(new SignedDeliveries.Answer(200, "accepted"), trimmed(SignedDeliveries.post(base,
          stripe.delivery(body, Instant.now()))));
      assertEquals(new SignedDeliveries.Answer(200, "duplicate"), trimmed(SignedDeliveries.post(base,
          stripe.delivery(body, Instant.now()))));
      Await.until("the invoice is booked", () -> LedgerRows.number(db.dataSource(),
          "select paid from account where customer = 'cus_ada'") == 4200);
      assertEquals(401, SignedDeliveries.post(base, StripeTestSigner.withSecrets("whsec_other")
          .delivery(body, Instant.now())).status());
    }
  }

  @Test
  void anUnsetSecretStopsTheAppAtStartUpNamingTheVariable() throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", System.getProperty("java.class.path"), App.class.getName()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().remove("STRIPE_WEBHOOK_SECRET");
    pb.environment().put("DATABASE_URL", "jdbc:postgresql://127.0.0.1:1/none");
    Process process = pb.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));

    assertEquals(1, process.exitValue(), output);
    assertTrue(output.contains("java.lang.IllegalArgumentException: environment variable STRIPE_WEBHOOK_SECRET is not"
        + " set: set it to the provider's webhook signing secret (several, comma-separated, during a rotation)"), output);
  }

  private static SignedDeliveries.Answer trimmed(SignedDeliveries.Answer answer) {
    return new SignedDeliveries.Answer(answer.status(), answer.body().strip());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
