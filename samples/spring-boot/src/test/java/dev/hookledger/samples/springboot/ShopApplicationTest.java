package dev.hookledger.samples.springboot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testkit.SignedDeliveries;
import dev.hookledger.stripe.StripeTestSigner;
import java.net.URI;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample application as it ships, on an embedded PostgreSQL: its three properties pointed at the
 * test database and a test secret, a Stripe-signed {@code invoice.paid} posted twice over HTTP pays
 * the account once.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
// closed after the class, while the test database answers: left to the JVM's exit, the runtime's close races the
// embedded server's shutdown hook and waits out the pool's 30 s connection timeout (SpringBootDeliveryContract)
@DirtiesContext
class ShopApplicationTest {
  private static final String SECRET = "whsec_spring_boot_sample_0123456789abcdef";
  private static final TestDatabase.Database DB = TestDatabase.create();

  static {
    DB.execute("create table account (customer text primary key, paid bigint not null default 0)");
    DB.execute("insert into account (customer) values ('cus_ada')");
  }

  @DynamicPropertySource
  static void theThreeProperties(DynamicPropertyRegistry properties) {
    properties.add("spring.datasource.url", DB::jdbcUrl);
    properties.add("spring.datasource.username", () -> "postgres");
    properties.add("hookledger.providers.stripe.secret", () -> SECRET);
  }

  @LocalServerPort
  int port;
  @Autowired
  JdbcTemplate jdbc;

  @Test
  void invoicePaidTwiceOverHttpPaysTheAccountOnce() {
    String body = "{\"id\":\"evt_boot_1\",\"object\":\"event\",\"api_version\":\"2024-06-20\",\"created\":"
        + Instant.now().getEpochSecond() + ",\"livemode\":false,\"pending_webhooks\":1,\"type\":\"invoice.paid\","
        + "\"data\":{\"object\":{\"id\":\"in_1\",\"object\":\"invoice\",\"customer\":\"cus_ada\",\"amount_paid\":4200}}}";
    URI server = URI.create("http://127.0.0.1:" + port);
    StripeTestSigner stripe = StripeTestSigner.withSecrets(SECRET);

    SignedDeliveries.Answer first = SignedDeliveries.post(server, stripe.delivery(body, Instant.now()));
    Await.until("evt_boot_1 done", () -> "done".equals(status("evt_boot_1")));
    SignedDeliveries.Answer again = SignedDeliveries.post(server, stripe.delivery(body, Instant.now()));

    assertEquals(200, first.status(), first.body());
    assertEquals("accepted", first.body().strip());
    assertEquals("duplicate", again.body().strip());
    assertEquals(4200L, jdbc.queryForObject("select paid from account where customer = 'cus_ada'", Long.class));
  }

  private String status(String eventId) {
    return jdbc.query("select status from hookledger.event where event_id = ?", r -> r.next() ? r.getString(1) : null,
        eventId);
  }
}
