package dev.hookledger.runtime.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hookledger.internal.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Payload parameters are read with a copy of the application's mapper whose deserializers skip an
 * unknown property where it stands, instead of copying it into a buffer first (what a record's
 * creator makes Jackson do): the same values and the same failures as the mapper alone, on every
 * shape of unknown property, and a user's own handling of unknown properties still wins.
 */
class UnknownPropertySkippingTest {
  static final String INVOICE = """
      {"id":"in_1","object":"invoice","account_country":"US","lines":{"object":"list","data":[{"id":"il_1",
      "amount":4000,"period":{"start":1,"end":2},"metadata":{}}],"has_more":false},"customer":"cus_ada",
      "discounts":[],"total_tax_amounts":[{"amount":0,"inclusive":true,"tax_rate":"txr_1"}],
      "amount_paid":4200,"status_transitions":{"paid_at":1714566000,"voided_at":null},"currency":"usd"}""";

  record Invoice(String id, String customer, long amount_paid, String currency) {}

  record Line(String id, long amount) {}

  record Lines(List<Line> data) {}

  record WithLines(String id, Lines lines, String currency) {}

  @Test
  void aRecordSkipsEachUnknownPropertyWholeWhereTheMapperAloneCopiesItTokenByToken() throws IOException {
    ObjectMapper skipping = UnknownPropertySkipping.mapperFor(Json.MAPPER);
    JsonNode invoice = Json.MAPPER.readTree(INVOICE);

    Counted alone = read(reader(Json.MAPPER, Invoice.class), invoice);
    Counted skipped = read(reader(skipping, Invoice.class), invoice);

    Invoice expected = new Invoice("in_1", "cus_ada", 4200, "usd");
    assertEquals(expected, alone.value());
    assertEquals(expected, skipped.value());
    // the object's start, 10 names, 4 known values, the first token of each of the 6 unknown values, its end
    assertEquals(1 + 10 + 4 + 6 + 1, skipped.tokens());
    assertEquals(tokens(invoice), alone.tokens(), "every token, those of the unknown properties copied");
  }

  @Test
  void nestedRecordsAndTheirListsSkipTheirOwnUnknownProperties() throws IOException {
    JsonNode invoice = Json.MAPPER.readTree(INVOICE);

    Counted alone = read(reader(Json.MAPPER, WithLines.class), invoice);
    Counted skipped = read(reader(UnknownPropertySkipping.mapperFor(Json.MAPPER), WithLines.class), invoice);

    WithLines expected = new WithLines("in_1", new Lines(List.of(new Line("il_1", 4000))), "usd");
    assertEquals(expected, alone.value());
    assertEquals(expected, skipped.value());
    // alone, the 15 tokens inside the unknown values met before a record's last creator property are copied
    // (discounts' [], total_tax_amounts' object, status_transitions' object); after it, both skip
    assertEquals(40, skipped.tokens());
    assertEquals(40 + 15, alone.tokens());
  }

  @Test
  void theApplicationsMapperIsCopiedNeverChanged() throws IOException {
    ObjectMapper application = JsonMapper.builder().build();
    JsonNode invoice = application.readTree(INVOICE);
    int before = read(reader(application, Invoice.class), invoice).tokens();

    ObjectMapper skipping = UnknownPropertySkipping.mapperFor(application);

    assertNotSame(application, skipping);
    assertEquals(tokens(invoice), before);
    assertEquals(before, read(reader(application, Invoice.class), invoice).tokens());
    assertEquals(before, read(reader(JsonMapper.builder().build(), Invoice.class), invoice).tokens());
  }

  @Test
  void mapsAsTheMapperAloneDoesOnTwoThousandPayloadsWithUnknownPropertiesOfEveryShape() throws IOException {
    ObjectMapper skipping = UnknownPropertySkipping.mapperFor(Json.MAPPER);
    Random random = new Random(36);
    for (int i = 0; i < 2_000; i++) {
      String json = mutated(random);
      JsonNode node = Json.MAPPER.readTree(json);
      for (Class<?> type : List.of(Invoice.class, WithLines.class, Factoried.class, Greedy.class, Declared.class)) {
        assertEquals(outcome(reader(Json.MAPPER, type), node), outcome(reader(skipping, type), node), json);
      }
    }
  }

  @Test
  void anAnySetterStillReceivesEveryUnknownProperty() throws IOException {
    Greedy greedy = reader(UnknownPropertySkipping.mapperFor(Json.MAPPER), Greedy.class)
        .readValue(Json.MAPPER.readTree(INVOICE));

    assertEquals("in_1", greedy.id);
    assertEquals(List.of("object", "account_country", "lines", "customer", "discounts", "total_tax_amounts",
        "amount_paid", "status_transitions", "currency"), List.copyOf(greedy.rest.keySet()));
  }

  @Test
  void aFactoryThatMayReturnASubtypeStillHandsItThePropertiesOnlyTheSubtypeKnows() throws IOException {
    Factoried value = reader(UnknownPropertySkipping.mapperFor(Json.MAPPER), Factoried.class)
        .readValue(Json.MAPPER.readTree(INVOICE));

    assertEquals("Paid", value.getClass().getSimpleName());
    assertEquals("cus_ada", ((Factoried.Paid) value).customer);
  }

  @Test
  void ignoreUnknownFalseOnTheTypeStillMapsAsPayloadReadersAlwaysHave() throws IOException {
    assertEquals(new Declared("in_1"),
        reader(UnknownPropertySkipping.mapperFor(Json.MAPPER), Declared.class)
            .readValue(Json.MAPPER.readTree(INVOICE)));
    assertEquals(new Declared("in_1"), reader(Json.MAPPER, Declared.class).readValue(Json.MAPPER.readTree(INVOICE)));
  }

  @Test
  void aMapperWithAProblemHandlerIsUsedAsItIsAndItsHandlerToldOfEachUnknownProperty() throws IOException {
    List<String> told = new ArrayList<>();
    ObjectMapper application = JsonMapper.builder().addHandler(new DeserializationProblemHandler() {
      @Override
      public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser p, JsonDeserializer<?> deserializer,
          Object beanOrClass, String propertyName) throws IOException {
        told.add(propertyName);
        p.skipChildren();
        return true;
      }
    }).build();

    ObjectMapper used = UnknownPropertySkipping.mapperFor(application);
    Invoice invoice = reader(used, Invoice.class).readValue(application.readTree(INVOICE));

    assertSame(application, used);
    assertEquals("cus_ada", invoice.customer());
    assertEquals(List.of("object", "account_country", "lines", "discounts", "total_tax_amounts", "status_transitions"),
        told);
  }

  @Test
  void aMapperThatCannotBeCopiedIsUsedAsItIs() {
    ObjectMapper uncopyable = new ObjectMapper() {
      private static final long serialVersionUID = 1L;
    };

    assertSame(uncopyable, UnknownPropertySkipping.mapperFor(uncopyable));
  }

  /** An any-setter: the unknown properties are its. */
  static final class Greedy {
    final String id;
    final Map<String, Object> rest = new LinkedHashMap<>();

    @JsonCreator
    Greedy(@JsonProperty("id") String id) {
      this.id = id;
    }

    @JsonAnySetter
    void put(String name, Object value) {
      rest.put(name, value);
    }

    @Override
    public String toString() {
      return "Greedy[id=" + id + ", rest=" + rest + "]";
    }
  }

  /** A factory that returns a subtype, whose setter knows a property its parent does not. */
  static class Factoried {
    final String id;

    Factoried(String id) {
      this.id = id;
    }

    @JsonCreator
    static Factoried of(@JsonProperty("id") String id) {
      return new Paid(id);
    }

    static final class Paid extends Factoried {
      String customer;

      Paid(String id) {
        super(id);
      }

      public void setCustomer(String customer) {
        this.customer = customer;
      }
    }

    @Override
    public String toString() {
      String customer = this instanceof Paid p ? ", customer=" + p.customer : "";
      return getClass().getSimpleName() + "[id=" + id + customer + "]";
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = false)
  record Declared(String id) {}

  private record Counted(Object value, int tokens) {}

  private static ObjectReader reader(ObjectMapper mapper, Class<?> type) {
    // as the runtime prepares a payload parameter's reader (ParameterSpec.binder)
    return mapper.readerFor(type).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  }

  /** The value read, and the tokens the mapping asked for one by one (a skipped value is one). */
  private static Counted read(ObjectReader reader, JsonNode node) throws IOException {
    int[] tokens = {0};
    JsonParser counting = new JsonParserDelegate(reader.treeAsTokens(node)) {
      @Override
      public JsonToken nextToken() throws IOException {
        tokens[0]++;
        return super.nextToken();
      }
    };
    Object value = reader.readValue(counting);
    return new Counted(value, tokens[0]);
  }

  /** Every token of {@code node}, as a parser reads them one by one. */
  private static int tokens(JsonNode node) throws IOException {
    int n = 0;
    try (JsonParser p = Json.MAPPER.treeAsTokens(node)) {
      while (p.nextToken() != null) {
        n++;
      }
    }
    return n;
  }

  /** The value mapped, or the failure as the runtime reports it. */
  private static String outcome(ObjectReader reader, JsonNode node) {
    try {
      return String.valueOf((Object) reader.readValue(node));
    } catch (IOException e) {
      return "failed: " + Json.describe(e);
    }
  }

  /**
   * {@link #INVOICE} with unknown properties of random shapes inserted before, between and after the
   * known ones, and now and then a known one removed, nulled or given a value of the wrong shape.
   */
  private static String mutated(Random random) throws IOException {
    Map<String, Object> object = new LinkedHashMap<>();
    @SuppressWarnings("unchecked")
    Map<String, Object> invoice = Json.MAPPER.readValue(INVOICE, LinkedHashMap.class);
    List<String> names = new ArrayList<>(invoice.keySet());
    for (String name : names) {
      while (random.nextInt(3) == 0) {
        object.put("x_" + object.size(), value(random, 0));
      }
      int fate = random.nextInt(40);
      if (fate == 0) {
        continue; // removed
      }
      object.put(name, fate == 1 ? null : fate == 2 ? value(random, 0) : invoice.get(name));
    }
    object.put("x_last", value(random, 0));
    return Json.MAPPER.writeValueAsString(object);
  }

  private static Object value(Random random, int depth) {
    switch (depth > 6 ? random.nextInt(6) : random.nextInt(9)) {
      case 0:
        return null;
      case 1:
        return random.nextBoolean();
      case 2:
        return random.nextLong();
      case 3:
        return new BigDecimal("1" + "0".repeat(random.nextInt(60)) + "." + random.nextInt(1000));
      case 4:
        return new java.math.BigInteger("9".repeat(1 + random.nextInt(300)));
      case 5:
        return "s\u00e9\"\\\n" + "x".repeat(random.nextInt(20));
      case 6: {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          list.add(value(random, depth + 1));
        }
        return list;
      }
      default: {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          map.put(random.nextBoolean() ? "id" : "k" + i, value(random, depth + 1));
        }
        return map;
      }
    }
  }
}
