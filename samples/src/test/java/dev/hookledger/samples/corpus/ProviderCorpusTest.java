package dev.hookledger.samples.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.InboundDelivery;
import dev.hookledger.github.GitHubTestSigner;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.samples.server.SampleApp;
import dev.hookledger.samples.testing.RunningSample;
import dev.hookledger.shopify.ShopifyTestSigner;
import dev.hookledger.stripe.StripeTestSigner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Real payloads, real senders: every public example payload under {@code corpus/} (see its README
 * for where each comes from) is signed with its provider's scheme, received over real HTTP by the
 * sample app, and settled by the sample's handlers: {@code done}, {@code ignored} (no handler for
 * its type), or {@code dead} with the sample's own one-line business refusal. None may fail mapping.
 *
 * <p>Each payload is received into an empty ledger and empty sample tables: the public examples
 * reuse ids ({@code evt_00000000000000}) and a shared ledger would answer {@code duplicate} or
 * {@code stale} and never run the handler on the later shapes. One attempt only, so that a refusal
 * settles {@code dead} at once.
 */
@TestMethodOrder(MethodOrderer.MethodName.class)
class ProviderCorpusTest {
  /** Every business refusal of the sample says what the sample does instead, in these words. */
  private static final String BUSINESS_REFUSAL = "; this sample ";
  private static final Set<String> HANDLED = Set.of("invoice.paid", "customer.subscription.created",
      "customer.subscription.updated", "customer.subscription.deleted", "customer.subscription.trial_will_end",
      "issues.opened", "push", "orders/create", "orders/updated");
  /** Stripe event types each object of the OpenAPI fixtures is sent as. */
  private static final Map<String, List<String>> STRIPE_TYPES = Map.of(
      "subscription", List.of("customer.subscription.created", "customer.subscription.updated",
          "customer.subscription.deleted"),
      "invoice", List.of("invoice.paid", "invoice.payment_succeeded", "invoice.payment_failed"),
      "customer", List.of("customer.created", "customer.updated"));
  private static final List<String> SHOPIFY_TOPICS = List.of("orders/create", "orders/updated", "orders/paid",
      "orders/cancelled");

  private static RunningSample sample;
  private static final Map<String, String> outcomes = new TreeMap<>();

  /** One delivery of the corpus: what it is called in reports, its type, and the delivery as signed. */
  private record Entry(String name, String provider, String type, InboundDelivery delivery, String eventId) {}

  @BeforeAll
  static void start() {
    sample = new RunningSample(b -> b.inbox(i -> i.retryPolicy(RetryPolicy.builder()
        .firstDelay(Duration.ofMillis(10)).factor(1).maxAttempts(1).jitter(0).build())));
  }

  @AfterAll
  static void stop() {
    sample.close();
  }

  @TestFactory
  Stream<DynamicTest> everyPayloadIsProcessedOrRefusedByTheSampleNeverFailingMapping() {
    return entries().stream().map(e -> DynamicTest.dynamicTest(e.name(), () -> receive(e)));
  }

  /** Runs after the dynamic tests (JUnit orders factories and tests by name; this name sorts last). */
  @Test
  void zzTheCorpusCoversEveryHandledTypeAndSeveralApiVersions() {
    Map<String, Integer> doneByType = new TreeMap<>();
    outcomes.forEach((name, outcome) -> {
      if (outcome.startsWith("done ")) {
        doneByType.merge(outcome.substring("done ".length()), 1, Integer::sum);
      }
    });
    for (String type : HANDLED) {
      if (!type.equals("customer.subscription.trial_will_end")) {
        assertTrue(doneByType.getOrDefault(type, 0) > 0, type + " never reached done: " + outcomes);
      }
    }
  }

  private static void receive(Entry e) throws SQLException {
    empty();
    assertEquals("200 accepted", sample.client.send(e.delivery()).toString(), e.name());
    sample.awaitSettled(e.eventId());
    Map<String, Object> row = LedgerRows.event(sample.app.dataSource(), SampleApp.LEDGER_SCHEMA, e.eventId())
        .orElseThrow();
    String status = (String) row.get("status");
    String error = (String) row.get("last_error");
    outcomes.put(e.name(), status + " " + e.type());
    switch (status) {
      case "done" -> assertTrue(HANDLED.contains(e.type()), e.name() + " done without a handler");
      case "ignored" -> assertTrue(!HANDLED.contains(e.type()), e.name() + " ignored though the sample handles it");
      case "dead" -> assertTrue(error != null && error.contains(BUSINESS_REFUSAL) && !error.contains("): required")
          && !error.contains("cannot be read as"), e.name() + " failed other than by the sample's refusal: " + error);
      default -> throw new AssertionError(e.name() + " settled " + status + ": " + error);
    }
  }

  /** Each payload meets an empty ledger, so that reused public ids are received and handled anew. */
  private static void empty() throws SQLException {
    try (Connection c = sample.app.dataSource().getConnection(); Statement s = c.createStatement()) {
      c.setAutoCommit(true);
      s.execute("TRUNCATE hookledger.event, hookledger.entity_version, sample.balance, sample.subscription,"
          + " sample.ticket, sample.repository_commits, sample.shop_order");
    }
  }

  private static List<Entry> entries() {
    Path root = corpus();
    List<Entry> entries = new ArrayList<>();
    StripeTestSigner stripe = StripeTestSigner.withSecrets(sample.secrets.stripe());
    int n = 0;
    for (Path file : files(root.resolve("stripe/stripe-ruby-mock"))) {
      String type = file.getFileName().toString().replace(".json", "");
      byte[] body = bytes(file);
      String id = tree(body).get("id").asText();
      entries.add(new Entry(name(root, file), "stripe", type, stripe.delivery(body, Instant.now()), id));
    }
    for (Path file : files(root.resolve("stripe/openapi-fixtures3"))) {
      String version = file.getParent().getFileName().toString();
      String object = new String(bytes(file), StandardCharsets.UTF_8);
      for (String type : STRIPE_TYPES.get(file.getFileName().toString().replace(".json", ""))) {
        String id = "evt_corpus_" + (++n);
        // the object keeps its original bytes; the envelope is Stripe's event shape around it
        String body = "{\n  \"id\": \"" + id + "\",\n  \"object\": \"event\",\n  \"api_version\": \"" + version
            + "\",\n  \"created\": 1700000000,\n  \"livemode\": false,\n  \"pending_webhooks\": 1,\n  \"type\": \""
            + type + "\",\n  \"data\": {\n    \"object\": " + object + "\n  }\n}";
        entries.add(new Entry(name(root, file) + " as " + type, "stripe", type,
            stripe.delivery(body.getBytes(StandardCharsets.UTF_8), Instant.now()), id));
      }
    }
    for (Path file : files(root.resolve("github/octokit-webhooks"))) {
      String event = file.getParent().getFileName().toString();
      byte[] body = bytes(file);
      String action = tree(body).path("action").asText("");
      String type = action.isEmpty() ? event : event + "." + action;
      String id = "corpus-delivery-" + (++n);
      entries.add(new Entry(name(root, file), "github", type,
          GitHubTestSigner.withSecret(sample.secrets.github()).withoutSha1().deliveryId(id).delivery(event, body), id));
    }
    for (Path file : files(root.resolve("shopify/documented"))) {
      for (String topic : SHOPIFY_TOPICS) {
        String id = "corpus-webhook-" + (++n);
        entries.add(new Entry(name(root, file) + " as " + topic, "shopify", topic,
            ShopifyTestSigner.withSecret(sample.secrets.shopify()).webhookId(id).delivery(topic, bytes(file)), id));
      }
    }
    return entries;
  }

  private static Path corpus() {
    try {
      return Path.of(ProviderCorpusTest.class.getResource("/corpus").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Path> files(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] bytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static com.fasterxml.jackson.databind.JsonNode tree(byte[] body) {
    try {
      return dev.hookledger.internal.Json.parse(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String name(Path root, Path file) {
    return root.relativize(file).toString();
  }
}
