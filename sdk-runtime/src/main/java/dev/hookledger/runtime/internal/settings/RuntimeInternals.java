package dev.hookledger.runtime.internal.settings;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import org.jooq.TransactionProvider;

/**
 * The one way hookledger's own modules reach past the public facade: what a
 * {@link WebhookRuntimeBuilder} holds (the front doors' defaults and the command line's retry
 * policy) and which transactions a {@link WebhookRuntime} runs its handlers in (the Spring
 * integration's check), without a public method naming an internal type. The facade hands its
 * {@link Handle} over once, when {@link WebhookRuntimeBuilder} is initialized (the JDK's
 * {@code SharedSecrets} pattern); this is the architecture rules' one named edge from an internal
 * package back to the facade.
 */
public final class RuntimeInternals {
  /** What the facade opens to its internal packages. */
  public interface Handle {
    /** What {@code builder} has been told so far, with its defaults for the rest. */
    RuntimeSettings settings(WebhookRuntimeBuilder builder);

    /** The transactions {@code runtime} was built with; null for jOOQ's own. */
    TransactionProvider transactions(WebhookRuntime runtime);
  }

  private static volatile Handle handle;

  private RuntimeInternals() {}

  /**
   * Called by the facade only, once.
   *
   * @throws IllegalStateException if a handle is installed already
   */
  public static synchronized void install(Handle facade) {
    if (handle != null) {
      throw new IllegalStateException("the facade's handle is installed already");
    }
    handle = requireNonNull(facade, "facade");
  }

  /** What {@code builder} has been told so far, with its defaults for the rest; never null. */
  public static RuntimeSettings settings(WebhookRuntimeBuilder builder) {
    return handle().settings(requireNonNull(builder, "builder"));
  }

  /** The transactions {@code runtime} was built with; null for jOOQ's own. */
  public static TransactionProvider transactions(WebhookRuntime runtime) {
    return handle().transactions(requireNonNull(runtime, "runtime"));
  }

  private static Handle handle() {
    if (handle == null) {
      WebhookRuntime.builder(); // initializes WebhookRuntimeBuilder, which installs the handle
    }
    return handle;
  }
}
