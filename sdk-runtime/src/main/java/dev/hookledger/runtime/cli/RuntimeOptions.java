package dev.hookledger.runtime.cli;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.settings.RuntimeInternals;
import dev.hookledger.runtime.internal.settings.RuntimeSettings;
import dev.hookledger.runtime.internal.settings.Setting;
import dev.hookledger.runtime.internal.settings.SettingsCatalogue;
import dev.hookledger.runtime.internal.settings.SettingsTable;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command line door to a runtime's settings: one option for every setting of the runtime's
 * catalogue ({@code --workers}, {@code --lease}, {@code --retry-max-attempts}, ... as the
 * table in docs/configuration.md lists them), each falling back to its environment variable
 * ({@code HOOKLEDGER_WORKERS}, ...), then to the builder's default. A command that builds a runtime
 * declares {@code @Command(modelTransformer = RuntimeOptions.class)} and passes its builder to
 * {@link #configure}; an option it declares itself under a setting's name (with its own default) is
 * that setting's, and wins over the environment variable. Durations are written {@code 500ms}, {@code 30s}, {@code 5m} or {@code PT30S}.
 */
public final class RuntimeOptions implements CommandLine.IModelTransformer {
  /** Created by picocli for a command that names it as its model transformer. */
  public RuntimeOptions() {}

  /** Adds the options the command does not declare itself. */
  @Override
  public CommandSpec transform(CommandSpec spec) {
    RuntimeSettings defaults = SettingsCatalogue.defaults();
    for (Setting<?> s : SettingsCatalogue.all()) {
      if (spec.findOption(s.option()) == null) {
        spec.addOption(OptionSpec.builder(s.option()).type(String.class).paramLabel(s.kind().javaName().toUpperCase())
            .description(s.builderCall() + " (default: $" + s.environmentVariable() + ", else "
                + SettingsTable.defaultText(s, defaults) + ")")
            .build());
      }
    }
    return spec;
  }

  /**
   * Sets on {@code builder} every setting given as an option of {@code spec}'s parsed command line,
   * else as an environment variable.
   *
   * @return {@code builder}
   * @throws CommandLine.ParameterException naming the option or variable and the bad value
   */
  public static WebhookRuntimeBuilder configure(CommandSpec spec, WebhookRuntimeBuilder builder,
      Map<String, String> environment) {
    requireNonNull(spec, "spec");
    requireNonNull(builder, "builder");
    requireNonNull(environment, "environment");
    try {
      SettingsCatalogue.applyText(builder, s -> {
        OptionSpec option = spec.findOption(s.option());
        // an option the command declares itself (bench's --workers, an int) is read as its text
        Object given = option == null ? null : option.getValue();
        return given != null ? given.toString() : environment.get(s.environmentVariable());
      }, key -> name(spec, key));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    return builder;
  }

  /** The retry policy {@link #configure} sets: the default with what the options and environment change. */
  public static RetryPolicy retryPolicy(CommandSpec spec, Map<String, String> environment) {
    WebhookRuntimeBuilder probe = WebhookRuntime.builder();
    configure(spec, probe, environment);
    return RuntimeInternals.settings(probe).retryPolicy();
  }

  private static String name(CommandSpec spec, String key) {
    if (SettingsCatalogue.RETRY.equals(key)) {
      return "--retry-*";
    }
    Setting<?> s = SettingsCatalogue.byKey(key).orElseThrow();
    OptionSpec option = spec.findOption(s.option());
    return option != null && option.getValue() != null ? s.option() : "environment variable " + s.environmentVariable();
  }
}
