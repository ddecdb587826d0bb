package dev.hookledger.runtime.internal.settings;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import java.util.function.Function;

/**
 * How the front doors read what a public {@link WebhookRuntimeBuilder} holds without public API
 * naming an internal type: the builder installs the accessor once, when {@link WebhookRuntime} is
 * initialized (the JDK's {@code SharedSecrets} pattern).
 */
public final class BuilderSettings {
  private static volatile Function<WebhookRuntimeBuilder, RuntimeSettings> access;

  private BuilderSettings() {}

  /** Called by {@link WebhookRuntime} only. */
  public static void install(Function<WebhookRuntimeBuilder, RuntimeSettings> settings) {
    access = requireNonNull(settings, "settings");
  }

  /** What {@code builder} has been told so far, with its defaults for the rest; never null. */
  public static RuntimeSettings of(WebhookRuntimeBuilder builder) {
    requireNonNull(builder, "builder");
    if (access == null) {
      WebhookRuntime.builder(); // initializes WebhookRuntime, which installs the accessor
    }
    return access.apply(builder);
  }
}
