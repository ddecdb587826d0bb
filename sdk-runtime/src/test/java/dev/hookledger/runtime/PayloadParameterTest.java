package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Handlers take the part of the payload they mean ({@code @Payload}), and mapping is strict where
 * silence loses money: a required property that is absent fails the attempt, naming the property and
 * its JSON path, so the event is retried and ends {@code dead} instead of settling {@code done}. INLINE
 * unless said otherwise, so that a failure surfaces from {@code receive}.
 */
class PayloadParameterTest {
  static final TestHookSigner SIGNER = new TestHookSigner("payload-secret");
  static final String NAME = PayloadParameterTest.class.getName();
  static final String INVOICE_PAID = """
      {"id":"evt_1","type":"invoice.paid","data":{"object":{"id":"in_1","customer":"cus_ada","amount_paid":4200,
      "lines":{"data":[{"id":"il_1","amount":4000},{"id":"il_2","amount":200}]},"metadata":{}}}}""";
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
  void aPointerSelectsThePartOfThePayloadForRecordsScalarsListsAndTrees() {
    Selected handler = new Selected();
    receive(start("p_select", handler), "evt_select", INVOICE_PAID);

    assertEquals(List.of("Invoice[id=in_1, customer=cus_ada, amount_paid=4200]", "cus_ada", "4200",
        "[Line[id=il_1, amount=4000], Line[id=il_2, amount=200]]", "{}", "Optional.empty", "null"), handler.seen);
  }

  @Test
  void theEnvelopeMappedToTheObjectFailsNamingThePropertyAndItsPath() {
    HandlerFailedException e = assertThrows(HandlerFailedException.class,
        () -> receive(start("p_envelope", new Envelope()), "evt_envelope", INVOICE_PAID));

    assertEquals("@OnEvent method 'void " + NAME + "$Envelope.paid(Invoice)' failed on testhook event evt_envelope"
        + " invoice.paid: parameter 1 (Invoice): required property 'customer' of Invoice is absent at /customer;"
        + " to map a part of the payload, name it with @Payload (the object inside an event's envelope: @Payload(\"/data/object\"), say);"
        + " if the property may be absent, mark it @Nullable or make it Optional", e.getMessage());
    assertEquals(0, LedgerRows.events(db.dataSource(), "p_envelope"), "INLINE: nothing recorded, the provider retries");
  }

  @Test
  void aStrictFailureIsRetriedAndEndsDeadWithItsCauseRecorded() {
    WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema("p_dead")
        .provider(new TestHookAdapter(), Secrets.of("payload-secret"))
        .handlers(new Envelope())
        .inbox(i -> i.retryPolicy(RetryPolicy.builder().firstDelay(Duration.ofMillis(20)).factor(1).maxAttempts(2).jitter(0).build()))
        .build();
    runtimes.add(runtime);
    runtime.migrate();
    runtime.start();

    assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive("testhook",
        SIGNER.delivery("testhook", "evt_dead", "invoice.paid", INVOICE_PAID)).outcome());

    Await.until("evt_dead is dead", () -> "dead".equals(row("p_dead", "evt_dead").get("status")));
    Map<String, Object> row = row("p_dead", "evt_dead");
    assertEquals(2, row.get("attempts"));
    assertTrue(((String) row.get("last_error")).startsWith("@OnEvent method 'void " + NAME + "$Envelope.paid(Invoice)'"
        + " failed on testhook event evt_dead invoice.paid: parameter 1 (Invoice): required property 'customer' of"
        + " Invoice is absent at /customer;"), (String) row.get("last_error"));
  }

  @Test
  void nestedRecordsAndListElementsAreCheckedAtTheirPath() {
    String missingAmount = INVOICE_PAID.replace("{\"id\":\"il_2\",\"amount\":200}", "{\"id\":\"il_2\"}");
    HandlerFailedException e = assertThrows(HandlerFailedException.class,
        () -> receive(start("p_nested", new Nested()), "evt_nested", missingAmount));

    assertEquals("@OnEvent method 'void " + NAME + "$Nested.paid(WithLines)' failed on testhook event evt_nested"
        + " invoice.paid: parameter 1 (WithLines): required property 'amount' of Line is absent at"
        + " /data/object/lines/data/1/amount; if it may be absent, mark it @Nullable or make it Optional",
        e.getMessage());
  }

  @Test
  void nullableAndOptionalComponentsMayBeAbsentAndStrictFalseMapsLeniently() {
    Lenient handler = new Lenient();
    String bare = "{\"data\":{\"object\":{\"id\":\"in_2\"}}}";
    receive(start("p_lenient", handler), "evt_lenient", bare);

    assertEquals(List.of("Guest[id=in_2, customer=null]", "Invoice[id=in_2, customer=null, amount_paid=0]"),
        handler.seen);
  }

  @Test
  void nothingAtThePointerFailsUnlessTheParameterMayBeAbsent() {
    HandlerFailedException e = assertThrows(HandlerFailedException.class,
        () -> receive(start("p_absent", new Object() {
          @OnEvent("invoice.paid")
          void paid(@Payload("/data/previous_attributes") JsonNode previous) {}
        }), "evt_absent", INVOICE_PAID));

    assertTrue(e.getMessage().endsWith("parameter 1 (JsonNode): nothing is at /data/previous_attributes in the"
        + " payload; if it may be absent, make the parameter Optional or mark it @Nullable"), e.getMessage());
  }

  @Test
  void jacksonNamesAnnotationsAndCreatorsDecideWhatIsRequired() {
    String body = "{\"data\":{\"object\":{\"id\":\"in_3\",\"customer\":\"cus_b\"}}}";
    HandlerFailedException named = assertThrows(HandlerFailedException.class,
        () -> receive(start("p_named", new Object() {
          @OnEvent("invoice.paid")
          void paid(@Payload("/data/object") SnakeInvoice invoice) {}
        }), "evt_named", body));
    assertTrue(named.getMessage().contains("required property 'amount_paid' of SnakeInvoice is absent at"
        + " /data/object/amount_paid;"), named.getMessage());

    HandlerFailedException created = assertThrows(HandlerFailedException.class,
        () -> receive(start("p_creator", new Object() {
          @OnEvent("invoice.paid")
          void paid(@Payload("/data/object") CreatedInvoice invoice) {}
        }), "evt_creator", body));
    assertTrue(created.getMessage().contains("required property 'total' of CreatedInvoice is absent at"
        + " /data/object/total;"), created.getMessage());
  }

  @Test
  void theApplicationsObjectMapperMapsAndNamesTheProperties() {
    ObjectMapper snake = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    List<String> seen = new CopyOnWriteArrayList<>();
    Object handler = new Object() {
      @OnEvent("invoice.paid")
      void paid(@Payload("/data/object") CamelInvoice invoice) {
        seen.add(invoice.toString());
      }
    };
    WebhookRuntime runtime = start("p_mapper", b -> b.objectMapper(snake), handler);

    receive(runtime, "evt_mapper", INVOICE_PAID);
    assertEquals(List.of("CamelInvoice[customer=cus_ada, amountPaid=4200]"), seen);

    HandlerFailedException e = assertThrows(HandlerFailedException.class, () -> receive(runtime, "evt_mapper_2",
        INVOICE_PAID.replace("\"amount_paid\":4200,", "")));
    assertTrue(e.getMessage().contains("required property 'amount_paid' of CamelInvoice is absent at"
        + " /data/object/amount_paid;"), e.getMessage());
  }

  @Test
  void aPresentNullIsNullForAReferenceTypeAndFailsForAPrimitive() {
    String nulls = INVOICE_PAID.replace("\"customer\":\"cus_ada\"", "\"customer\":null")
        .replace("\"metadata\":{}", "\"metadata\":null");
    List<String> seen = new CopyOnWriteArrayList<>();
    receive(start("p_present_null", new Object() {
      @OnEvent("invoice.paid")
      void paid(@Payload("/data/object") Invoice invoice, @Payload("/data/object/customer") String customer,
          @Payload("/data/object/metadata") JsonNode metadata) {
        seen.add(invoice + " " + customer + " " + metadata);
      }
    }), "evt_present_null", nulls);
    assertEquals(List.of("Invoice[id=in_1, customer=null, amount_paid=4200] null null"), seen);

    HandlerFailedException e = assertThrows(HandlerFailedException.class,
        () -> receive(start("p_null_primitive", new Object() {
          @OnEvent("invoice.paid")
          void paid(@Payload("/data/object") Invoice invoice) {}
        }), "evt_null_primitive", INVOICE_PAID.replace("\"amount_paid\":4200", "\"amount_paid\":null")));
    assertTrue(e.getMessage().endsWith("parameter 1 (Invoice): property 'amount_paid' of Invoice is null at"
        + " /data/object/amount_paid, but a long cannot be null (make it Long if the payload may say null)"),
        e.getMessage());
  }

  @Test
  void everyShapeFailsOnAnAbsentPropertyInsteadOfMappingADefault() {
    String body = "{\"data\":{\"object\":{\"id\":\"in_4\",\"customer\":\"cus_c\",\"amount_paid\":0}}}";
    assertEquals("required property 'total' of BeanInvoice is absent at /data/object/total;"
        + " if it may be absent, mark it @Nullable or make it Optional",
        failure("p_bean", new Object() {
          @OnEvent("invoice.paid")
          void paid(@Payload("/data/object") BeanInvoice invoice) {}
        }, body));
    assertEquals("required property 'total' of ConstructedInvoice is absent at /data/object/total;"
        + " if it may be absent, mark it @Nullable or make it Optional",
        failure("p_constructed", new Object() {
          @OnEvent("invoice.paid")
          void paid(@Payload("/data/object") ConstructedInvoice invoice) {}
        }, body));

    List<String> seen = new CopyOnWriteArrayList<>();
    receive(start("p_shapes_ok", new Object() {
      @OnEvent("invoice.paid")
      void paid(@Payload("/data/object") ConstructedInvoice constructed, @Payload("/data/object") DefaultedBean bean) {
        seen.add(constructed + " " + bean);
      }
    }), "evt_shapes_ok", body.replace("\"amount_paid\":0", "\"amount_paid\":0,\"total\":7"));
    assertEquals(List.of("in_4/7 cus_c/usd/null"), seen);
  }

  @Test
  void unwrappedPropertiesAreCheckedBesideTheirOwnersAndValueTypesForPresenceOnly() {
    String body = "{\"data\":{\"object\":{\"id\":\"in_6\",\"customer\":\"cus_d\",\"amount_paid\":5}}}";
    List<String> seen = new CopyOnWriteArrayList<>();
    receive(start("p_unwrapped", new Object() {
      @OnEvent("invoice.paid")
      void paid(@Payload("/data/object") Unwrapping invoice) {
        seen.add(invoice.id + " " + invoice.payer.customer());
      }
    }), "evt_unwrapped", body);
    assertEquals(List.of("in_6 cus_d"), seen);

    assertEquals("required property 'customer' of Payer is absent at /data/object/customer;"
        + " if it may be absent, mark it @Nullable or make it Optional",
        failure("p_unwrapped_absent", new Object() {
          @OnEvent("invoice.paid")
          void paid(@Payload("/data/object") Unwrapping invoice) {}
        }, body.replace("\"customer\":\"cus_d\",", "")));
  }

  @Test
  void aCamelCaseNameWhoseSnakeCaseTwinIsPresentNamesTheNamingStrategyFirst() {
    assertEquals("required property 'amountPaid' of CamelInvoice is absent at /data/object/amountPaid,"
        + " but the payload has 'amount_paid': it names its properties in snake_case; annotate CamelInvoice with"
        + " @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class), or name this one"
        + " @JsonProperty(\"amount_paid\")",
        failure("p_twin_snake", new Object() {
          @OnEvent("invoice.paid")
          void paid(@Payload("/data/object") CamelInvoice invoice) {}
        }, INVOICE_PAID));
    assertEquals("required property 'amount_paid' of SnakeInvoice is absent at /data/object/amount_paid,"
        + " but the payload has 'amountPaid': it names its properties in camelCase; annotate SnakeInvoice with"
        + " @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class), or name this one"
        + " @JsonProperty(\"amountPaid\")",
        failure("p_twin_camel", new Object() {
          @OnEvent("invoice.paid")
          void paid(@Payload("/data/object") SnakeInvoice invoice) {}
        }, "{\"data\":{\"object\":{\"id\":\"in_5\",\"amountPaid\":1}}}"));
  }

  private String failure(String schema, Object handler, String body) {
    HandlerFailedException e = assertThrows(HandlerFailedException.class,
        () -> receive(start(schema, handler), "evt_" + schema, body));
    String marker = "(" + e.getMessage().replaceAll(".*parameter 1 \\(([A-Za-z]+)\\).*", "$1") + "): ";
    return e.getMessage().substring(e.getMessage().indexOf(marker) + marker.length());
  }

  private WebhookRuntime start(String schema, Object handler) {
    return start(schema, b -> b, handler);
  }

  private WebhookRuntime start(String schema, java.util.function.UnaryOperator<WebhookRuntimeBuilder> options,
      Object handler) {
    WebhookRuntime runtime = options.apply(WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema(schema)
        .provider(new TestHookAdapter(), Secrets.of("payload-secret"))
        .handlers(handler)
        .mode(ProcessingMode.INLINE))
        .build();
    runtimes.add(runtime);
    runtime.migrate();
    runtime.start();
    return runtime;
  }

  private static void receive(WebhookRuntime runtime, String id, String body) {
    assertEquals(Receipt.Outcome.PROCESSED,
        runtime.receive("testhook", SIGNER.delivery("testhook", id, "invoice.paid", body)).outcome());
  }

  private static Map<String, Object> row(String schema, String id) {
    return LedgerRows.event(db.dataSource(), schema, id).orElseThrow();
  }

  /** Any annotation named {@code Nullable} marks a component or parameter that may be absent. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target({ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
  @interface Nullable {}

  record Invoice(String id, String customer, long amount_paid) {}

  record Line(String id, long amount) {}

  record Lines(List<Line> data) {}

  record WithLines(Data data) {
    record Data(Obj object) {}

    record Obj(String id, Lines lines) {}
  }

  record Guest(String id, @Nullable String customer) {}

  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  record SnakeInvoice(String id, long amountPaid) {}

  record CamelInvoice(String customer, long amountPaid) {}

  static final class CreatedInvoice {
    final String id;
    final long total;

    @JsonCreator
    CreatedInvoice(@JsonProperty("id") String id, @JsonProperty("total") long total) {
      this.id = id;
      this.total = total;
    }
  }

  record Payer(String customer) {}

  /** A bean whose payer's properties sit beside its own in the JSON. */
  static final class Unwrapping {
    public String id;
    @com.fasterxml.jackson.annotation.JsonUnwrapped
    public Payer payer;
  }

  /** A JavaBean: a no-argument constructor and setters, as Jackson fills it. */
  static final class BeanInvoice {
    private String id;
    private long total;

    public void setId(String id) {
      this.id = id;
    }

    public void setTotal(long total) {
      this.total = total;
    }
  }

  /** A bean whose field initializer is its default, and a setter marked @Nullable: both may be absent. */
  static final class DefaultedBean {
    private String customer;
    private String currency = "usd";
    private String memo;

    public void setCustomer(String customer) {
      this.customer = customer;
    }

    public String getCurrency() {
      return currency;
    }

    public void setCurrency(String currency) {
      this.currency = currency;
    }

    public void setMemo(@Nullable String memo) {
      this.memo = memo;
    }

    @Override
    public String toString() {
      return customer + "/" + currency + "/" + memo;
    }
  }

  /** Immutable, built through its only constructor without @JsonCreator: the usual Spring style. */
  static final class ConstructedInvoice {
    private final String id;
    private final long total;

    public ConstructedInvoice(String id, long total) {
      this.id = id;
      this.total = total;
    }

    @Override
    public String toString() {
      return id + "/" + total;
    }
  }

  static final class Selected {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object") Invoice invoice, @Payload("/data/object/customer") String customer,
        @Payload("/data/object/amount_paid") long amount, @Payload("/data/object/lines/data") List<Line> lines,
        @Payload("/data/object/metadata") JsonNode metadata,
        @Payload("/data/previous_attributes") Optional<JsonNode> previous,
        @Payload("/data/object/discount") @Nullable Invoice discount) {
      seen.add(invoice.toString());
      seen.add(customer);
      seen.add(Long.toString(amount));
      seen.add(lines.toString());
      seen.add(metadata.toString());
      seen.add(previous.toString());
      seen.add(String.valueOf(discount));
    }
  }

  static final class Envelope {
    @OnEvent("invoice.paid")
    void paid(Invoice invoice) {}
  }

  static final class Nested {
    @OnEvent("invoice.paid")
    void paid(@Payload WithLines invoice) {}
  }

  static final class Lenient {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object") Guest guest, @Payload(value = "/data/object", strict = false) Invoice invoice) {
      seen.add(guest.toString());
      seen.add(invoice.toString());
    }
  }
}
