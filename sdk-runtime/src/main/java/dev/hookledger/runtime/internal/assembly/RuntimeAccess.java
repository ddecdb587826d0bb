package dev.hookledger.runtime.internal.assembly;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.WebhookRuntime;
import java.util.function.Function;

/**
 * How the internal packages (the front doors, the Spring integration, tests) reach what a public
 * {@link WebhookRuntime} and its builder hold without public API naming internal types: the facade
 * installs the two accessors once, in its static initializer (the JDK's {@code SharedSecrets}
 * pattern).
 */
public final class RuntimeAccess {
  private static volatile Function<WebhookRuntime, Assembly> assemblies;
  private static volatile Function<WebhookRuntime.Builder, RuntimeSettings> builderSettings;

  private RuntimeAccess() {}

  /** Called by {@link WebhookRuntime} only. */
  public static void install(Function<WebhookRuntime, Assembly> assembly,
      Function<WebhookRuntime.Builder, RuntimeSettings> settings) {
    assemblies = requireNonNull(assembly, "assembly");
    builderSettings = requireNonNull(settings, "settings");
  }

  /** The assembly of {@code runtime}; never null. */
  public static Assembly assembly(WebhookRuntime runtime) {
    return assemblies.apply(requireNonNull(runtime, "runtime"));
  }

  /** What {@code builder} has been told so far, with its defaults for the rest; never null. */
  public static RuntimeSettings settings(WebhookRuntime.Builder builder) {
    requireNonNull(builder, "builder");
    return builderSettings.apply(builder);
  }
}
