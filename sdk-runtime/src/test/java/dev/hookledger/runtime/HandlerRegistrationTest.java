package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.EventContext;
import dev.hookledger.HandlerRegistrationException;
import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** {@code @OnEvent} methods are validated when the runtime is built, with messages that name the method and the rule. */
class HandlerRegistrationTest {
  static final String NAME = HandlerRegistrationTest.class.getName();
  static final String SUPPORTED = "(supported: JsonNode, WebhookEvent, EventContext, Outbox, DSLContext, Connection, a class"
      + " or record Jackson can read, or any type Jackson can read with"
      + " @Payload(\"/pointer\"))";

  @Test
  void rejectsParameterThatNoValueCanBeSuppliedFor() {
    assertRejected(new UnresolvableParameter(), "@OnEvent method 'void " + NAME + "$UnresolvableParameter.paid(Invoice, Foo)':"
        + " no value can be supplied for parameter 2 of type Foo " + SUPPORTED);
  }

  @Test
  void rejectsJdkTypesAndClassesJacksonCannotBuild() {
    assertRejected(new StringParameter(), "@OnEvent method 'void " + NAME + "$StringParameter.paid(String)':"
        + " no value can be supplied for parameter 1 of type String " + SUPPORTED);
    assertRejected(new NoCreatorParameter(), "@OnEvent method 'void " + NAME + "$NoCreatorParameter.paid(NoCreator)':"
        + " no value can be supplied for parameter 1 of type NoCreator " + SUPPORTED);
  }

  @Test
  void rejectsShapesWhosePropertiesCannotBeChecked() {
    assertRejected(new BuiltParameter(), "@OnEvent method 'void " + NAME
        + "$BuiltParameter.paid(Built)': parameter 1 (Built): hookledger cannot check which properties Built needs:"
        + " it is built by a builder (@JsonDeserialize(builder = ...)); take a JsonNode and read it yourself, map a"
        + " record or a class Jackson builds property by property, or map it unchecked with @Payload(strict = false)");
    assertRejected(new DelegatingParameter(), "@OnEvent method 'void " + NAME
        + "$DelegatingParameter.paid(Delegating)': parameter 1 (Delegating): hookledger cannot check which properties"
        + " Delegating needs: it is built from a delegate (a @JsonCreator(mode = DELEGATING) or single-argument"
        + " constructor); give it a constructor that takes its properties (@JsonCreator with @JsonProperty names, or"
        + " compiled with -parameters), or a no-argument constructor and setters, or make it a record");
    assertRejected(new NestedDelegatingParameter(), "@OnEvent method 'void " + NAME
        + "$NestedDelegatingParameter.paid(HoldsDelegating)': parameter 1 (HoldsDelegating): hookledger cannot check"
        + " which properties Delegating needs: it is built from a delegate (a @JsonCreator(mode = DELEGATING) or"
        + " single-argument constructor); give it a constructor that takes its properties (@JsonCreator with"
        + " @JsonProperty names, or compiled with -parameters), or a no-argument constructor and setters, or make it"
        + " a record");
  }

  @Test
  void acceptsValueTypesReadByTheirOwnDeserializerOrFromAString() {
    build(new OwnDeserializerParameter()).close();
  }

  @Test
  void rejectsPayloadPointerThatIsNotAJsonPointer() {
    assertRejected(new RelativePointer(), "@OnEvent method 'void " + NAME + "$RelativePointer.paid(Invoice)':"
        + " parameter 1 of type Invoice: @Payload(\"data/object\") is not a JSON Pointer: it must be empty or start"
        + " with '/', as in @Payload(\"/data/object\")");
    assertRejected(new BadEscape(), "@OnEvent method 'void " + NAME + "$BadEscape.paid(String)':"
        + " parameter 1 of type String: @Payload(\"/metadata/a~2b\") is not a JSON Pointer: '~' must be followed by 0"
        + " or 1 (~0 stands for '~', ~1 for '/')");
  }

  @Test
  void rejectsPayloadOnAParameterHookledgerSuppliesItself() {
    assertRejected(new PayloadOnTransaction(), "@OnEvent method 'void " + NAME + "$PayloadOnTransaction.paid(DSLContext)':"
        + " parameter 1 of type DSLContext: @Payload cannot apply: hookledger supplies a DSLContext itself"
        + " (remove @Payload)");
  }

  @Test
  void rejectsNullablePrimitiveAndRawOptional() {
    assertRejected(new NullablePrimitive(), "@OnEvent method 'void " + NAME + "$NullablePrimitive.paid(long)':"
        + " parameter 1 of type long: is @Nullable, but a long cannot be null (use Long)");
    assertRejected(new RawOptional(), "@OnEvent method 'void " + NAME + "$RawOptional.paid(Optional)':"
        + " parameter 1 of type Optional: a raw Optional says nothing to map to (use Optional<Invoice>)");
  }

  @Test
  void acceptsAnyTypeJacksonCanReadUnderAPayloadPointer() {
    build(new EveryPayloadParameter()).close();
  }

  @Test
  void rejectsPrivateOnEventMethod() {
    assertRejected(new PrivateMethod(), "@OnEvent method 'void " + NAME + "$PrivateMethod.paid(JsonNode)': must not be"
        + " private (hookledger calls it from outside the class: make it package-private or public)");
  }

  @Test
  void rejectsStaticOnEventMethod() {
    assertRejected(new StaticMethod(), "@OnEvent method 'void " + NAME + "$StaticMethod.paid(JsonNode)': must not be"
        + " static (it is called on the registered handler instance: remove 'static')");
  }

  @Test
  void rejectsAbstractOnEventMethod() {
    assertRejected(new Implementation(), "@OnEvent method 'void " + NAME + "$AbstractBase.paid(JsonNode)': must not be"
        + " abstract (annotate the method that implements it)");
  }

  @Test
  void rejectsOnEventWithoutTypes() {
    assertRejected(new NoTypes(), "@OnEvent method 'void " + NAME + "$NoTypes.paid()': names no event type (give at"
        + " least one, e.g. @OnEvent(\"invoice.paid\"), or \"*\" for every type)");
  }

  @Test
  void rejectsBadTypePatterns() {
    assertRejected(new InnerWildcard(), "@OnEvent method 'void " + NAME + "$InnerWildcard.paid()': bad event type"
        + " pattern 'in*voice' ('*' may only end a pattern, as in \"invoice.*\", or stand alone as \"*\")");
    assertRejected(new BlankType(), "@OnEvent method 'void " + NAME + "$BlankType.paid()': bad event type pattern ' '"
        + " (a type must not be blank)");
  }

  @Test
  void rejectsProviderThatIsNotRegistered() {
    assertRejected(new UnknownProvider(), "@OnEvent method 'void " + NAME + "$UnknownProvider.paid()': provider 'strpe'"
        + " is not registered (registered: testhook)");
  }

  @Test
  void rejectsMethodThatReturnsAValue() {
    assertRejected(new ReturnsValue(), "@OnEvent method 'boolean " + NAME + "$ReturnsValue.paid()': must return void"
        + " (a result would be ignored), but returns boolean");
  }

  @Test
  void rejectsHandlerWithoutOnEventMethods() {
    assertRejected(new Object(), "handler java.lang.Object declares no @OnEvent method (nor do its supertypes)");
  }

  @Test
  void acceptsEverySupportedParameterType() {
    build(new EveryParameter()).close();
  }

  @Test
  void rejectsTwoMethodsWithOneHandlerName() {
    assertRejected(new Overloads(), "@OnEvent method 'void " + NAME + "$Overloads.paid(WebhookEvent)': handler name '"
        + NAME + "$Overloads#paid' is already taken by @OnEvent method 'void " + NAME + "$Overloads.paid(JsonNode)'"
        + " (the ledger records applied handlers by name: give one of them @OnEvent(name = \"...\"))");
    HandlerRegistrationException e = assertThrows(HandlerRegistrationException.class, () -> WebhookRuntime.builder()
        .dataSource(new PGSimpleDataSource()).provider(new TestHookAdapter(), Secrets.of("s"))
        .handlers(new NamedBilling(), new NamedAgain()).build());
    assertEquals("@OnEvent method 'void " + NAME + "$NamedAgain.paid()': handler name 'billing' is already taken by"
        + " @OnEvent method 'void " + NAME + "$NamedBilling.paid()' (the ledger records applied handlers by name: give"
        + " one of them @OnEvent(name = \"...\"))", e.getMessage());
  }

  @Test
  void rejectsBlankOrPaddedHandlerName() {
    assertRejected(new BlankName(), "@OnEvent method 'void " + NAME + "$BlankName.paid()': name ' ' must not be blank,"
        + " start or end with white space, or be longer than 200 characters");
    assertRejected(new PaddedName(), "@OnEvent method 'void " + NAME + "$PaddedName.paid()': name 'billing ' must not"
        + " be blank, start or end with white space, or be longer than 200 characters");
  }

  @Test
  void acceptsOverloadsNamedApart() {
    build(new OverloadsNamedApart()).close();
  }

  static class Overloads {
    @OnEvent("invoice.paid")
    void paid(JsonNode payload) {}

    @OnEvent("invoice.paid")
    void paid(WebhookEvent event) {}
  }

  static class OverloadsNamedApart {
    @OnEvent("invoice.paid")
    void paid(JsonNode payload) {}

    @OnEvent(value = "invoice.paid", name = "billing.paid-event")
    void paid(WebhookEvent event) {}
  }

  static class NamedBilling {
    @OnEvent(value = "invoice.paid", name = "billing")
    void paid() {}
  }

  static class NamedAgain {
    @OnEvent(value = "invoice.paid", name = "billing")
    void paid() {}
  }

  static class BlankName {
    @OnEvent(value = "invoice.paid", name = " ")
    void paid() {}
  }

  static class PaddedName {
    @OnEvent(value = "invoice.paid", name = "billing ")
    void paid() {}
  }

  private static void assertRejected(Object handler, String message) {
    HandlerRegistrationException e = assertThrows(HandlerRegistrationException.class, () -> build(handler));
    assertEquals(message, e.getMessage());
  }

  /** Building connects to nothing, so an unreachable data source is enough. */
  private static WebhookRuntime build(Object handler) {
    return WebhookRuntime.builder()
        .dataSource(new PGSimpleDataSource())
        .provider(new TestHookAdapter(), Secrets.of("s"))
        .handlers(handler)
        .build();
  }

  interface Foo {}

  record Invoice(String id) {}

  static final class NoCreator {
    final String id;

    NoCreator(String id) {
      this.id = id;
    }
  }

  static final class UnresolvableParameter {
    @OnEvent("invoice.paid")
    void paid(Invoice invoice, Foo foo) {}
  }

  static final class StringParameter {
    @OnEvent("invoice.paid")
    void paid(String payload) {}
  }

  @com.fasterxml.jackson.databind.annotation.JsonDeserialize(using = OwnDeserializer.Reader.class)
  static final class OwnDeserializer {
    static final class Reader extends com.fasterxml.jackson.databind.deser.std.StdDeserializer<OwnDeserializer> {
      Reader() {
        super(OwnDeserializer.class);
      }

      @Override
      public OwnDeserializer deserialize(com.fasterxml.jackson.core.JsonParser p,
          com.fasterxml.jackson.databind.DeserializationContext ctxt) {
        return new OwnDeserializer();
      }
    }
  }

  /** A value type (an amount, a code): read from a string, or by its own deserializer. */
  static final class Code {
    final String value;

    Code(String value) {
      this.value = value;
    }
  }

  record WithValues(String id, OwnDeserializer amount, Code code) {}

  static final class OwnDeserializerParameter {
    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object") OwnDeserializer invoice, @Payload("/data/object") WithValues values) {}
  }

  @com.fasterxml.jackson.databind.annotation.JsonDeserialize(builder = Built.Builder.class)
  static final class Built {
    @com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder
    static final class Builder {
      Builder withId(String id) {
        return this;
      }

      Built build() {
        return new Built();
      }
    }
  }

  static final class BuiltParameter {
    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object") Built invoice) {}
  }

  static final class Delegating {
    @com.fasterxml.jackson.annotation.JsonCreator(mode = com.fasterxml.jackson.annotation.JsonCreator.Mode.DELEGATING)
    Delegating(Map<String, Object> all) {}
  }

  static final class DelegatingParameter {
    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object") Delegating invoice) {}
  }

  record HoldsDelegating(String id, Delegating inner) {}

  static final class NestedDelegatingParameter {
    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object") HoldsDelegating invoice) {}
  }

  static final class NoCreatorParameter {
    @OnEvent("invoice.paid")
    void paid(NoCreator payload) {}
  }

  static final class PrivateMethod {
    @OnEvent("invoice.paid")
    private void paid(JsonNode payload) {}
  }

  static final class StaticMethod {
    @OnEvent("invoice.paid")
    static void paid(JsonNode payload) {}
  }

  abstract static class AbstractBase {
    @OnEvent("invoice.paid")
    abstract void paid(JsonNode payload);
  }

  static final class Implementation extends AbstractBase {
    @Override
    void paid(JsonNode payload) {}
  }

  static final class NoTypes {
    @OnEvent({})
    void paid() {}
  }

  static final class InnerWildcard {
    @OnEvent("in*voice")
    void paid() {}
  }

  static final class BlankType {
    @OnEvent(" ")
    void paid() {}
  }

  static final class UnknownProvider {
    @OnEvent(value = "invoice.paid", provider = "strpe")
    void paid() {}
  }

  static final class ReturnsValue {
    @OnEvent("invoice.paid")
    boolean paid() {
      return true;
    }
  }

  @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
  @interface Nullable {}

  static final class RelativePointer {
    @OnEvent("invoice.paid")
    void paid(@Payload("data/object") Invoice invoice) {}
  }

  static final class BadEscape {
    @OnEvent("invoice.paid")
    void paid(@Payload("/metadata/a~2b") String value) {}
  }

  static final class PayloadOnTransaction {
    @OnEvent("invoice.paid")
    void paid(@Payload("/data") DSLContext tx) {}
  }

  static final class NullablePrimitive {
    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object/amount") @Nullable long amount) {}
  }

  static final class RawOptional {
    @OnEvent("invoice.paid")
    @SuppressWarnings("rawtypes")
    void paid(@Payload("/data/object") Optional invoice) {}
  }

  static final class EveryPayloadParameter {
    @OnEvent("*")
    void all(@Payload("/data/object") Invoice invoice, @Payload("/data/object/id") String id,
        @Payload("/data/object/amount") long amount, @Payload("/data/object/lines/data") List<Invoice> lines,
        @Payload("/data/object") Optional<Invoice> maybe, @Payload("/data/object/metadata") Map<String, String> metadata,
        @Payload("/data/object") JsonNode tree, @Payload Invoice whole, @Payload("/data/object/a~1b~0c") String escaped) {}
  }

  static final class EveryParameter {
    @OnEvent("*")
    void all(JsonNode payload, Invoice invoice, WebhookEvent event, EventContext context, DSLContext tx,
        Connection connection) {}
  }
}
