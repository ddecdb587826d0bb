package dev.hookledger.samples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.InboundDelivery;
import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.testing.RunningSample;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import dev.hookledger.samples.traffic.WebhookClient.Answer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sample app as {@code serve} runs it, over real HTTP and PostgreSQL: each way a provider
 * misbehaves, and the protection visible in {@code /sample/state.json}. The handlers are not
 * idempotent (see {@code SampleHandlersTest}), so any duplicate or stale effect would show.
 */
class ServeProtectionsTest {
  private RunningSample sample;
  private WebhookClient client;
  private SampleSigners sign;

  @BeforeEach
  void start() {
    sample = new RunningSample();
    client = sample.client;
    sign = sample.sign;
  }

  @AfterEach
  void stop() {
    sample.close();
  }

  @Test
  void stripeRetriesOfOneInvoiceAreAcknowledgedButBookedOnce() {
    String body = SampleEvents.invoicePaid("evt_r1", "in_r1", "cus_ada", 4200, "usd", Instant.now());
    assertEquals("200 accepted", client.send(sign.stripe(body, Instant.now())).toString());
    awaitSettled("evt_r1");
    assertEquals("200 duplicate", client.send(sign.stripe(body, Instant.now())).toString());
    assertEquals("200 duplicate", client.send(sign.stripe(body, Instant.now())).toString());
    assertEquals(Map.of("cus_ada", 4200L), state().balances());
  }

  @Test
  void twentyConcurrentCopiesOfOneEventAreRecordedAndBookedOnce() throws Exception {
    String body = SampleEvents.invoicePaid("evt_c1", "in_c1", "cus_grace", 1999, "usd", Instant.now());
    InboundDelivery delivery = sign.stripe(body, Instant.now());
    ExecutorService senders = Executors.newFixedThreadPool(20);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Answer>> futures = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        futures.add(senders.submit(() -> {
          go.await();
          return client.send(delivery);
        }));
      }
      go.countDown();
      Map<String, Integer> answers = new TreeMap<>();
      for (Future<Answer> f : futures) {
        answers.merge(f.get().toString(), 1, Integer::sum);
      }
      assertEquals(Map.of("200 accepted", 1, "200 duplicate", 19), answers);
    } finally {
      senders.shutdownNow();
    }
    awaitSettled("evt_c1");
    assertEquals(1, sample.events());
    assertEquals(Map.of("cus_grace", 1999L), state().balances());
  }

  @Test
  void githubRedeliveriesOpenOneTicketAndCountAPushOnce() {
    String issue = UUID.randomUUID().toString();
    String push = UUID.randomUUID().toString();
    String issueBody = SampleEvents.issueOpened("octo/demo", 7, 12, "Broken link", Instant.now());
    String pushBody = SampleEvents.push("octo/demo", "ab".repeat(20), 4);
    assertEquals("200 accepted", client.send(sign.github("issues", issue, issueBody)).toString());
    assertEquals("200 accepted", client.send(sign.github("push", push, pushBody)).toString());
    assertEquals("200 duplicate", client.send(sign.github("issues", issue, issueBody)).toString());
    assertEquals("200 duplicate", client.send(sign.github("push", push, pushBody)).toString());
    awaitSettled(issue);
    awaitSettled(push);
    SampleState state = state();
    assertEquals(1, state.tickets());
    assertEquals(Map.of("octo/demo", 4L), state.commits());
  }

  @Test
  void githubAppInstallationEventsWithUnixSecondTimestampsAreAcceptedNotRefused() {
    // GitHub App installation payloads carry created_at/updated_at as integer Unix seconds; GitHub
    // never retries, so a 400 here loses the event
    String unix = "{\"action\":\"created\",\"installation\":{\"id\":2311213,\"app_id\":81234,"
        + "\"target_type\":\"Organization\",\"created_at\":1501449845,\"updated_at\":1501449845,"
        + "\"suspended_at\":null},\"repositories\":[],\"requester\":null,\"sender\":{\"login\":\"octocat\"}}";
    String iso = unix.replace("\"created\"", "\"suspend\"").replace("1501449845,\"updated_at\":1501449845",
        "\"2017-07-30T21:24:05.000-07:00\",\"updated_at\":\"2024-06-01T12:00:00Z\"");
    String bare = "{\"action\":\"added\",\"installation\":{\"id\":2311213,\"updated_at\":null},"
        + "\"repositories_added\":[{\"id\":1}],\"repositories_removed\":[]}";
    String first = UUID.randomUUID().toString();
    String second = UUID.randomUUID().toString();
    String third = UUID.randomUUID().toString();
    assertEquals("200 accepted", client.send(sign.github("installation", first, unix)).toString());
    assertEquals("200 accepted", client.send(sign.github("installation", second, iso)).toString());
    assertEquals("200 accepted", client.send(sign.github("installation_repositories", third, bare)).toString());
    awaitSettled(first);
    awaitSettled(second);
    awaitSettled(third);
    assertEquals("ignored", sample.status(first), "no sample handler wants installation events");
  }

  @Test
  void tamperedBodyIsRefusedWith401AndChangesNothing() {
    String body = SampleEvents.invoicePaid("evt_t1", "in_t1", "cus_mallory", 100, "usd", Instant.now());
    InboundDelivery signed = sign.stripe(body, Instant.now());
    InboundDelivery forged = InboundDelivery.of("POST", signed.path(), signed.headers(),
        body.replace("\"amount_paid\":100,", "\"amount_paid\":100000,").getBytes(StandardCharsets.UTF_8));
    Answer answer = client.send(forged);
    assertEquals(401, answer.status(), answer.toString());
    assertEquals(0, sample.events());
    assertEquals(Map.of(), state().balances());
  }

  @Test
  void staleStripeTimestampIsRefusedWith401AndChangesNothing() {
    Instant tenMinutesAgo = Instant.now().minusSeconds(600);
    String body = SampleEvents.invoicePaid("evt_old", "in_old", "cus_mallory", 100, "usd", tenMinutesAgo);
    Answer answer = client.send(sign.stripe(body, tenMinutesAgo));
    assertEquals(401, answer.status(), answer.toString());
    assertEquals(0, sample.events());
  }

  @Test
  void stateJsonShowsEveryKindOfBusinessState() {
    Instant now = Instant.now();
    sendSettled("evt_j1", SampleEvents.invoicePaid("evt_j1", "in_j1", "cus_ada", 4200, "usd", now));
    sendSettled("evt_j2", SampleEvents.subscription("evt_j2", "created", "sub_j", "cus_ada", "active", "pro", now));
    String issue = UUID.randomUUID().toString();
    client.send(sign.github("issues", issue, SampleEvents.issueOpened("octo/demo", 1, 1, "t", now)));
    String push = UUID.randomUUID().toString();
    client.send(sign.github("push", push, SampleEvents.push("octo/demo", "cd".repeat(20), 2)));
    String order = UUID.randomUUID().toString();
    client.send(sign.shopify("orders/create", order, SampleEvents.order(7L, "#7", "9.90", "paid", now)));
    awaitSettled(issue);
    awaitSettled(push);
    awaitSettled(order);
    assertEquals("""
        {
          "balances" : {
            "cus_ada" : 4200
          },
          "subscriptions" : {
            "sub_j" : {
              "status" : "active",
              "plan" : "pro"
            }
          },
          "tickets" : 1,
          "commits" : {
            "octo/demo" : 2
          },
          "orders" : {
            "7" : {
              "total" : "9.90",
              "status" : "paid"
            }
          }
        }""", client.get("/sample/state.json").strip().replace("\r\n", "\n"));
  }

  @Test
  void adminPageAnswersBesideTheWebhooksOnlyWithTheToken() {
    String page = client.get("/admin", sample.secrets.adminToken());
    assertTrue(page.contains("hookledger"), page);
    IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        () -> client.get("/admin"));
    assertEquals("GET /admin answered 401", refused.getMessage());
    assertThrows401(() -> client.get("/admin/status.json", "wrong-token-0123456789"));
    assertTrue(client.get("/admin/health.json", sample.secrets.adminToken()).contains("\"up\":true"));
    assertEquals("up\n", client.get("/healthz"), "the load balancer's check needs no token and tells nothing more");
  }

  private static void assertThrows401(org.junit.jupiter.api.function.Executable get) {
    IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, get);
    assertTrue(e.getMessage().endsWith(" answered 401"), e.getMessage());
  }

  private void sendSettled(String eventId, String stripeBody) {
    assertEquals("200 accepted", client.send(sign.stripe(stripeBody, Instant.now())).toString());
    sample.awaitSettled(eventId);
  }

  private void awaitSettled(String eventId) {
    sample.awaitSettled(eventId);
  }

  private SampleState state() {
    return sample.state();
  }
}
