package dev.hookledger.runtime.internal.dispatch;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.HandlerRegistrationException;
import dev.hookledger.WebhookEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes an event to the {@code @OnEvent} methods that match its type and provider, and runs them
 * one after the other in the caller's transaction, in a stable order: by the handler's class name,
 * method name, parameter types, then registration order. Immutable and thread-safe.
 */
public final class Dispatcher {
  private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
  private static final Comparator<HandlerMethod> ORDER = Comparator
      .comparing(HandlerMethod::handlerClass)
      .thenComparing(h -> h.template().methodName())
      .thenComparing(h -> h.template().parameterTypes())
      .thenComparingInt(HandlerMethod::registration);

  private final List<HandlerMethod> methods;

  private Dispatcher(List<HandlerMethod> methods) {
    this.methods = methods;
  }

  /**
   * Scans and validates the handlers.
   *
   * @param providers the ids of the registered providers, which {@code @OnEvent(provider = ...)} must name
   * @param mapper maps payloads to the handlers' parameter types
   * @throws HandlerRegistrationException naming the class, method and rule at fault
   */
  public static Dispatcher of(List<Object> handlers, Collection<String> providers, ObjectMapper mapper) {
    List<HandlerMethod> methods = new ArrayList<>();
    for (Object handler : handlers) {
      requireNonNull(handler, "handler");
      List<HandlerTemplate> templates = HandlerScanner.templates(handler.getClass());
      if (templates.isEmpty()) {
        throw new HandlerRegistrationException("handler " + handler.getClass().getName()
            + " declares no @OnEvent method (nor do its supertypes)");
      }
      for (HandlerTemplate t : templates) {
        if (!t.provider().isEmpty() && !providers.contains(t.provider())) {
          throw new HandlerRegistrationException("@OnEvent method '" + t.description() + "': provider '"
              + t.provider() + "' is not registered (registered: " + String.join(", ", new TreeSet<>(providers)) + ")");
        }
        List<ParameterBinder> binders = new ArrayList<>();
        t.parameters().forEach(p -> binders.add(p.binder(mapper)));
        methods.add(new HandlerMethod(t, handler.getClass().getName(), t.handle().bindTo(handler), methods.size(),
            binders));
      }
    }
    methods.sort(ORDER);
    methods.forEach(m -> log.debug("@OnEvent method registered: {}", m));
    return new Dispatcher(List.copyOf(methods));
  }

  /** The number of registered methods. */
  public int size() {
    return methods.size();
  }

  /** Whether any method matches the event: if none does, it is recorded {@code ignored} and never claimed. */
  public boolean handles(WebhookEvent event) {
    for (HandlerMethod m : methods) {
      if (m.matches(event)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a method declared {@code skipStale} matches the event: only then is its version checked. */
  public boolean skipsStale(WebhookEvent event) {
    for (HandlerMethod m : methods) {
      if (m.skipStale() && m.matches(event)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Runs every matching method, in order; the first that throws ends the dispatch.
   *
   * @param stale whether the ordering guard found the event older than its entity's applied
   *     version; then methods with {@code skipStale = true} are skipped
   * @throws dev.hookledger.runtime.HandlerFailedException from the first method that failed
   */
  public Dispatched dispatch(Invocation invocation, boolean stale) {
    WebhookEvent event = invocation.event();
    int invoked = 0;
    int skipped = 0;
    for (HandlerMethod m : methods) {
      if (!m.matches(event)) {
        continue;
      }
      if (stale && m.skipStale()) {
        skipped++;
        continue;
      }
      m.invoke(invocation);
      invoked++;
    }
    return new Dispatched(invoked, skipped);
  }

  /**
   * What a dispatch did.
   *
   * @param invoked methods that ran and returned
   * @param skippedStale methods skipped because the event was stale
   */
  public record Dispatched(int invoked, int skippedStale) {}
}
