package dev.hookledger.runtime.internal.assembly;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.WebhookRuntime;
import java.util.function.Function;

/**
 * How internal packages (the Spring integration, tests) reach the {@link Assembly} of a public
 * {@link WebhookRuntime} without public API naming an internal type: the facade installs the
 * accessor once, in its static initializer (the JDK's {@code SharedSecrets} pattern).
 */
public final class RuntimeAccess {
  private static volatile Function<WebhookRuntime, Assembly> assemblies;

  private RuntimeAccess() {}

  /** Called by {@link WebhookRuntime} only. */
  public static void install(Function<WebhookRuntime, Assembly> assembly) {
    assemblies = requireNonNull(assembly, "assembly");
  }

  /** The assembly of {@code runtime}; never null. */
  public static Assembly assembly(WebhookRuntime runtime) {
    return assemblies.apply(requireNonNull(runtime, "runtime"));
  }
}
