package dev.hookledger.runtime.spring.boot4;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.EffectDelivery;
import dev.hookledger.EffectHandler;
import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import dev.hookledger.runtime.spring.internal.HookledgerConfiguration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeHint;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.annotation.AnnotationConfigUtils;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

/**
 * A native image of a hookledger application gets, from Spring's ahead-of-time processing of its
 * context, the reflection its {@code @OnEvent} methods and payload types need, the binding of its
 * {@code EffectHandler}s' effect classes, and the ledger's DDL.
 */
class AotHintsTest {
  @Test
  void handlerMethodsTheirPayloadTypesAndTheLedgerDdlGetHints() {
    RuntimeHints hints = hintsOf(Map.of("billing", Billing.class, "unrelated", Unrelated.class));

    TypeHint billing = hints.reflection().getTypeHint(Billing.class);
    assertNotNull(billing, "no reflection hint for the handler class");
    assertTrue(billing.methods().anyMatch(m -> m.getName().equals("paid") && m.getMode() == ExecutableMode.INVOKE),
        "no INVOKE hint for the @OnEvent method");
    assertNotNull(hints.reflection().getTypeHint(Invoice.class), "no binding hint for the payload type");
    assertNotNull(hints.reflection().getTypeHint(Refund.class), "no binding hint for a payload type in a List");
    TypeHint unrelated = hints.reflection().getTypeHint(Unrelated.class);
    assertTrue(unrelated == null || unrelated.methods().findAny().isEmpty(), "a bean without @OnEvent got method hints");
    assertTrue(RuntimeHintsPredicates.resource().forResource("db/hookledger/V1__ledger.sql").test(hints));
  }

  @Test
  void anEffectHandlersEffectClassGetsBindingHints() {
    RuntimeHints hints = hintsOf(Map.of("mailer", Mailer.class));

    assertNotNull(hints.reflection().getTypeHint(ReceiptMail.class),
        "no binding hint for the effect class the outbox writes and reads back as JSON");
  }

  /** The hints Spring's ahead-of-time processing gives a context of the starter and these beans. */
  private static RuntimeHints hintsOf(Map<String, Class<?>> beans) {
    GenericApplicationContext context = new GenericApplicationContext();
    AnnotationConfigUtils.registerAnnotationConfigProcessors(context);
    context.registerBean(HookledgerConfiguration.class);
    beans.forEach((name, type) -> context.registerBean(name, type));
    DefaultGenerationContext generation = new DefaultGenerationContext(
        new ClassNameGenerator(ClassName.get(AotHintsTest.class)), new InMemoryGeneratedFiles());
    new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
    return generation.getRuntimeHints();
  }

  /** A typed effect of the outbox. */
  public record ReceiptMail(String to, String invoice) {}

  public static class Mailer implements EffectHandler<ReceiptMail> {
    @Override
    public void deliver(ReceiptMail mail, EffectDelivery delivery) {}
  }

  /** A payload type, bound by Jackson. */
  public record Invoice(String id, long amount) {}

  /** Another, bound as a list. */
  public record Refund(String id) {}

  public static class Billing {
    @OnEvent("invoice.paid")
    public void paid(@Payload("/data/object") Invoice invoice) {}

    @OnEvent("refunds.made")
    public void refunded(@Payload("/data/refunds") List<Refund> refunds) {}
  }

  public static class Unrelated {}
}
