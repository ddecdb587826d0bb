package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link WebhookRuntime} stays a facade: lifecycle, {@code receive}, {@code admin}, {@code health}
 * and {@code builder()}, with the few reads its Javadoc documents; the settings live in
 * {@link WebhookRuntimeBuilder}, a type of its own. A new public method here is a decision, not a
 * drift: add it to this list on purpose.
 */
class WebhookRuntimeFacadeTest {
  private static final Set<String> FACADE = Set.of(
      "static WebhookRuntimeBuilder builder()",
      "void migrate()", "void start()", "void close()",
      "Receipt receive(String, InboundDelivery)", "ReplaySink replaySink()",
      "InboxAdmin admin()", "Health health()", "RefusedDeliveries refusedDeliveries()",
      "DataSource dataSource()", "String schema()", "ProcessingMode mode()");

  @Test
  void thePublicMethodsAreTheDocumentedFacade() {
    Set<String> actual = Arrays.stream(WebhookRuntime.class.getDeclaredMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic())
        .map(WebhookRuntimeFacadeTest::signature)
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(FACADE), actual);
  }

  @Test
  void theBuilderIsATopLevelTypeOfItsOwn() throws NoSuchMethodException {
    assertEquals(Set.of(), Arrays.stream(WebhookRuntime.class.getDeclaredClasses())
        .filter(c -> Modifier.isPublic(c.getModifiers())).map(Class::getSimpleName).collect(Collectors.toSet()));
    assertEquals(null, WebhookRuntimeBuilder.class.getEnclosingClass());
    assertEquals(WebhookRuntimeBuilder.class, WebhookRuntime.class.getMethod("builder").getReturnType());
  }

  private static String signature(Method m) {
    String params = Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "));
    return (Modifier.isStatic(m.getModifiers()) ? "static " : "") + m.getReturnType().getSimpleName() + " "
        + m.getName() + "(" + params + ")";
  }
}
