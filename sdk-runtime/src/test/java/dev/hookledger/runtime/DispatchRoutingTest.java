package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which methods an event reaches, in which order, with which arguments. INLINE, so that every
 * handler has run when {@code receive} returns.
 */
class DispatchRoutingTest {
  static final TestHookSigner SIGNER = new TestHookSigner("routing-secret");
  static TestDatabase.Database db;
  final List<WebhookRuntime> runtimes = new ArrayList<>();

  @BeforeAll
  static void database() {
    db = TestDatabase.create();
  }

  @AfterEach
  void close() {
    runtimes.forEach(WebhookRuntime::close);
  }

  @Test
  void exactTypesWildcardsAndProviderQualifiersSelectTheMethods() {
    Router router = new Router();
    WebhookRuntime runtime = start("routing", router);

    assertEquals(List.of("everything", "exact", "invoiceAny"), calls(runtime, router, "alpha", "invoice.paid"));
    assertEquals(List.of("betaOnly", "everything", "exact", "invoiceAny"), calls(runtime, router, "beta", "invoice.paid"));
    assertEquals(List.of("everything", "invoiceAny"), calls(runtime, router, "alpha", "invoice.voided"));
    assertEquals(List.of("customer", "everything"), calls(runtime, router, "alpha", "customer.deleted"));
    assertEquals(List.of("everything"), calls(runtime, router, "alpha", "invoices.paid"));
  }

  @Test
  void methodsOfSeveralHandlersRunInTheSameOrderWhateverTheRegistrationOrder() {
    List<String> calls = new CopyOnWriteArrayList<>();
    WebhookRuntime ab = start("order_ab", new AaFirst(calls), new BbSecond(calls));
    WebhookRuntime ba = start("order_ba", new BbSecond(calls), new AaFirst(calls));

    receive(ab, "alpha", "evt_ab", "thing.happened");
    List<String> first = List.copyOf(calls);
    calls.clear();
    receive(ba, "alpha", "evt_ba", "thing.happened");

    assertEquals(List.of("AaFirst.one", "AaFirst.two", "BbSecond.one"), first);
    assertEquals(first, calls);
  }

  @Test
  void parametersAreSuppliedByType() {
    Parameters parameters = new Parameters();
    WebhookRuntime runtime = start("params", parameters);

    receive(runtime, "alpha", "evt_params", "invoice.paid", "{\"id\":\"in_1\",\"amount\":42}");

    assertEquals(List.of("in_1", "in_1/42", "evt_params", "1"), parameters.seen.subList(0, 4));
    String key = parameters.seen.get(4);
    assertEquals(UUID.fromString(key).toString(), key, "an idempotency key is a UUID, safe in any header");
  }

  @Test
  void aHandlerChangingItsPayloadChangesNothingForTheHandlersAfterIt() {
    List<String> seen = new CopyOnWriteArrayList<>();
    WebhookRuntime runtime = start("own_payload", new MutatesFirst(seen), new ReadsSecond(seen));

    receive(runtime, "alpha", "evt_own", "invoice.paid", "{\"id\":\"in_1\",\"amount\":42}");

    assertEquals(List.of("first changed amount to 0", "second read {\"id\":\"in_1\",\"amount\":42}",
        "second's event reads {\"id\":\"in_1\",\"amount\":42}"), seen);
  }

  @Test
  void inheritedAndInterfaceMethodsAreFoundOnceAndBridgeMethodsSkipped() {
    List<String> calls = new CopyOnWriteArrayList<>();
    WebhookRuntime runtime = start("inherit", new Subclass(calls));

    receive(runtime, "alpha", "evt_base", "from.base");
    receive(runtime, "alpha", "evt_iface", "from.interface");
    receive(runtime, "alpha", "evt_override", "overridden");
    receive(runtime, "alpha", "evt_bridge", "bridged", "{\"id\":\"in_9\",\"amount\":1}");

    assertEquals(List.of("Base.fromBase", "Defaults.fromInterface", "Subclass.overridden", "Subclass.take in_9"), calls);
  }

  private WebhookRuntime start(String schema, Object... handlers) {
    WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema(schema)
        .provider(new TestHookAdapter("alpha"), Secrets.of("routing-secret"))
        .provider(new TestHookAdapter("beta"), Secrets.of("routing-secret"))
        .handlers(handlers)
        .mode(ProcessingMode.INLINE)
        .build();
    runtimes.add(runtime);
    runtime.migrate();
    runtime.start();
    return runtime;
  }

  private static List<String> calls(WebhookRuntime runtime, Router router, String provider, String type) {
    router.calls.clear();
    receive(runtime, provider, "evt_" + UUID.randomUUID(), type);
    return List.copyOf(router.calls);
  }

  private static void receive(WebhookRuntime runtime, String provider, String id, String type) {
    receive(runtime, provider, id, type, "{}");
  }

  private static void receive(WebhookRuntime runtime, String provider, String id, String type, String body) {
    assertEquals(Receipt.Outcome.PROCESSED, runtime.receive(provider, SIGNER.delivery(provider, id, type, body)).outcome());
  }

  record Invoice(String id, long amount) {}

  /** Runs first (classes run in name order): changes the tree it is given. */
  static final class MutatesFirst {
    final List<String> seen;

    MutatesFirst(List<String> seen) {
      this.seen = seen;
    }

    @OnEvent("invoice.paid")
    void change(JsonNode payload) {
      ((ObjectNode) payload).put("amount", 0);
      seen.add("first changed amount to " + payload.get("amount"));
    }
  }

  static final class ReadsSecond {
    final List<String> seen;

    ReadsSecond(List<String> seen) {
      this.seen = seen;
    }

    @OnEvent("invoice.paid")
    void read(JsonNode payload, WebhookEvent event) {
      seen.add("second read " + payload);
      seen.add("second's event reads " + event.payload());
    }
  }

  static final class Router {
    final List<String> calls = new CopyOnWriteArrayList<>();

    @OnEvent("invoice.paid")
    void exact() {
      calls.add("exact");
    }

    @OnEvent("invoice.*")
    void invoiceAny() {
      calls.add("invoiceAny");
    }

    @OnEvent("*")
    void everything() {
      calls.add("everything");
    }

    @OnEvent(value = "invoice.paid", provider = "beta")
    void betaOnly() {
      calls.add("betaOnly");
    }

    @OnEvent({"customer.created", "customer.deleted"})
    void customer() {
      calls.add("customer");
    }
  }

  static final class BbSecond {
    final List<String> calls;

    BbSecond(List<String> calls) {
      this.calls = calls;
    }

    @OnEvent("thing.*")
    void one() {
      calls.add("BbSecond.one");
    }
  }

  static final class AaFirst {
    final List<String> calls;

    AaFirst(List<String> calls) {
      this.calls = calls;
    }

    @OnEvent("thing.happened")
    void two() {
      calls.add("AaFirst.two");
    }

    @OnEvent("*")
    void one() {
      calls.add("AaFirst.one");
    }
  }

  static final class Parameters {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @OnEvent("invoice.paid")
    void all(JsonNode payload, Invoice invoice, WebhookEvent event, EventContext context) {
      seen.add(payload.get("id").asText());
      seen.add(invoice.id() + "/" + invoice.amount());
      seen.add(event.eventId());
      seen.add(Integer.toString(context.attempt()));
      seen.add(context.idempotencyKey());
    }
  }

  interface Defaults {
    List<String> calls();

    @OnEvent("from.interface")
    default void fromInterface() {
      calls().add("Defaults.fromInterface");
    }
  }

  interface Taker<T> {
    void take(T value);
  }

  static class Base {
    final List<String> calls;

    Base(List<String> calls) {
      this.calls = calls;
    }

    @OnEvent("from.base")
    void fromBase() {
      calls.add("Base.fromBase");
    }

    @OnEvent("overridden")
    void overridden() {
      calls.add("Base.overridden");
    }
  }

  static final class Subclass extends Base implements Defaults, Taker<Invoice> {
    Subclass(List<String> calls) {
      super(calls);
    }

    @Override
    public List<String> calls() {
      return calls;
    }

    @OnEvent("overridden")
    @Override
    void overridden() {
      calls.add("Subclass.overridden");
    }

    /** javac copies this annotation onto the bridge method take(Object), which must not be registered. */
    @OnEvent("bridged")
    @Override
    public void take(Invoice invoice) {
      calls.add("Subclass.take " + invoice.id());
    }
  }
}
