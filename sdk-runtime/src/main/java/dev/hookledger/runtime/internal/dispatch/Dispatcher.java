package dev.hookledger.runtime.internal.dispatch;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.HandlerRegistrationException;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.observe.EventTracing;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
  private final EventTracing tracing;

  private Dispatcher(List<HandlerMethod> methods, EventTracing tracing) {
    this.methods = methods;
    this.tracing = tracing;
  }

  /** This dispatcher, each method's run observed by {@code tracing} (a span per handler). */
  public Dispatcher tracedBy(EventTracing tracing) {
    return new Dispatcher(methods, requireNonNull(tracing, "tracing"));
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
    Map<String, String> names = new HashMap<>();
    // one copy for every payload parameter: it skips the properties a type does not name
    ObjectMapper payloads = UnknownPropertySkipping.mapperFor(requireNonNull(mapper, "mapper"));
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
        String taken = names.putIfAbsent(t.name(), t.description());
        if (taken != null) {
          throw new HandlerRegistrationException("@OnEvent method '" + t.description() + "': handler name '" + t.name()
              + "' is already taken by @OnEvent method '" + taken
              + "' (the ledger records applied handlers by name: give one of them @OnEvent(name = \"...\"))");
        }
        List<ParameterBinder> binders = new ArrayList<>();
        t.parameters().forEach(p -> binders.add(p.binder(payloads)));
        methods.add(new HandlerMethod(t, handler.getClass().getName(), t.handle().bindTo(handler), methods.size(),
            binders));
      }
    }
    methods.sort(ORDER);
    methods.forEach(m -> log.debug("@OnEvent method registered: {}", m));
    return new Dispatcher(List.copyOf(methods), EventTracing.NONE);
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

  /** The names of the registered methods, in dispatch order. */
  public List<String> names() {
    return methods.stream().map(HandlerMethod::name).toList();
  }

  /** The names of the methods that match {@code event}, in dispatch order. */
  public List<String> names(WebhookEvent event) {
    return methods.stream().filter(m -> m.matches(event)).map(HandlerMethod::name).toList();
  }

  /** Whether every one of {@code names} is a registered method's name. */
  public boolean registers(Collection<String> names) {
    return methods.stream().map(HandlerMethod::name).toList().containsAll(names);
  }

  /** Whether a method of that name that matches {@code event} is declared {@code skipStale}. */
  public boolean skipsStale(WebhookEvent event, Set<String> names) {
    return methods.stream().anyMatch(m -> m.skipStale() && names.contains(m.name()) && m.matches(event));
  }

  /**
   * Runs every matching method, in order, that {@code applied} does not find already applied to the
   * event; the first that throws ends the dispatch.
   *
   * @param stale whether the ordering guard found the event older than its entity's applied
   *     version; then methods with {@code skipStale = true} are skipped
   * @param only the names of the methods that may run (a backfill's); null for every method
   * @param applied asked once, before any method runs, with the names of those about to run
   * @throws dev.hookledger.runtime.HandlerFailedException from the first method that failed
   */
  public Dispatched dispatch(Invocation invocation, boolean stale, Set<String> only, AppliedHandlers applied) {
    WebhookEvent event = invocation.event();
    List<HandlerMethod> due = new ArrayList<>();
    List<String> dueNames = new ArrayList<>();
    int skipped = 0;
    for (HandlerMethod m : methods) {
      if (!m.matches(event) || only != null && !only.contains(m.name())) {
        continue;
      }
      if (stale && m.skipStale()) {
        skipped++;
        continue;
      }
      due.add(m);
      dueNames.add(m.name());
    }
    if (due.isEmpty()) {
      return new Dispatched(0, skipped, 0);
    }
    Set<String> toRun = applied.record(invocation, Collections.unmodifiableList(dueNames));
    List<String> ran = new ArrayList<>();
    for (HandlerMethod m : due) {
      if (toRun.contains(m.name())) {
        tracing.handler(event, m.name(), () -> m.invoke(invocation));
        ran.add(m.name());
      }
    }
    if (!ran.isEmpty()) {
      applied.ran(invocation, ran);
    }
    return new Dispatched(ran.size(), skipped, due.size() - ran.size());
  }

  /**
   * What a dispatch did.
   *
   * @param invoked methods that ran and returned
   * @param skippedStale methods skipped because the event was stale
   * @param alreadyApplied methods skipped because the ledger records them as applied to the event
   */
  public record Dispatched(int invoked, int skippedStale, int alreadyApplied) {}

  /**
   * The ledger's record of which handlers applied which event, written in the handlers' transaction.
   */
  @FunctionalInterface
  public interface AppliedHandlers {
    /** Records nothing: every method runs (tests of routing alone). */
    AppliedHandlers NONE = (invocation, names) -> Set.copyOf(names);

    /**
     * Asked, in the invocation's transaction, before any of {@code names} runs.
     *
     * @return the names not recorded as applied to the event: only these run
     */
    Set<String> record(Invocation invocation, List<String> names);

    /** Told, in the same transaction, which of them ran and returned. */
    default void ran(Invocation invocation, List<String> names) {}
  }
}
