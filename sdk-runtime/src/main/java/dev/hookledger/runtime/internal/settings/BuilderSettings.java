package dev.hookledger.runtime.internal.settings;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.WebhookRuntime;
import java.util.function.Function;

/**
 * How the front doors read what a public {@link WebhookRuntime.Builder} holds without public API
 * naming an internal type: the builder installs the accessor once, when {@link WebhookRuntime} is
 * initialized (the JDK's {@code SharedSecrets} pattern).
 */
public final class BuilderSettings {
  private static volatile Function<WebhookRuntime.Builder, RuntimeSettings> access;

  private BuilderSettings() {}

  /** Called by {@link WebhookRuntime} only. */
  public static void install(Function<WebhookRuntime.Builder, RuntimeSettings> settings) {
    access = requireNonNull(settings, "settings");
  }

  /** What {@code builder} has been told so far, with its defaults for the rest; never null. */
  public static RuntimeSettings of(WebhookRuntime.Builder builder) {
    requireNonNull(builder, "builder");
    if (access == null) {
      WebhookRuntime.builder(); // initializes WebhookRuntime, which installs the accessor
    }
    return access.apply(builder);
  }
}
