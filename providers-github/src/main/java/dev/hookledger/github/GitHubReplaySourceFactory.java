package dev.hookledger.github;

import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import dev.hookledger.spi.replay.ReplaySettings;
import dev.hookledger.spi.replay.SettingsReplaySourceFactory;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Builds a {@link GitHubReplaySource} from named settings, for the command line and configuration
 * files. Found by {@link java.util.ServiceLoader}. Exactly one hook is named: {@code repository}
 * with {@code hook-id}, {@code organization} with {@code hook-id}, or {@code app=true}. Settings not
 * listed in {@link #settings()} are ignored.
 */
public final class GitHubReplaySourceFactory implements ReplaySourceFactory {
  private final SettingsReplaySourceFactory catalogue = new SettingsReplaySourceFactory(
      GitHubEventFields.PROVIDER, GitHubReplaySourceFactory::build,
      "token", "token with admin rights on the hook, or the App's JWT for app=true; required, never shown",
      "api-base", "GitHub API base URL; default https://api.github.com, GitHub Enterprise Server https://HOST/api/v3",
      "repository", "owner/name of the repository whose hook to replay",
      "organization", "organization whose hook to replay",
      "hook-id", "the hook's numeric id; required with repository or organization, optional with app=true",
      "app", "true to replay the GitHub App's hook",
      "mode", "redeliver (default: GitHub sends missed deliveries again, signed) or ingest (fetch and record them)");

  /** Called by {@code ServiceLoader}. */
  public GitHubReplaySourceFactory() {}

  @Override
  public String provider() {
    return catalogue.provider();
  }

  @Override
  public Map<String, String> settings() {
    return catalogue.settings();
  }

  @Override
  public ReplaySource create(Map<String, String> values) {
    return catalogue.create(values);
  }

  private static ReplaySource build(ReplaySettings settings) {
    GitHubReplaySource.Builder builder =
        GitHubReplaySource.builder()
            .token(settings.required("token"))
            .apiBase(settings.baseUri("api-base", "https://api.github.com"));
    Optional<String> repository = settings.optional("repository");
    Optional<String> organization = settings.optional("organization");
    boolean app = settings.bool("app").orElse(false);
    int hooks = (repository.isPresent() ? 1 : 0) + (organization.isPresent() ? 1 : 0) + (app ? 1 : 0);
    if (hooks != 1) {
      throw new IllegalArgumentException(
          "github replay needs exactly one hook: repository=owner/name with hook-id, organization=LOGIN with hook-id, "
              + "or app=true; " + (hooks == 0 ? "none was given" : hooks + " were given"));
    }
    if (repository.isPresent()) {
      builder.repositoryHook(repository.get(), hookId(settings));
    } else if (organization.isPresent()) {
      builder.organizationHook(organization.get(), hookId(settings));
    } else if (settings.optional("hook-id").isPresent()) {
      builder.appHook(hookId(settings));
    } else {
      builder.appHook();
    }
    settings.optional("mode").ifPresent(mode -> builder.mode(mode(settings, mode)));
    return builder.build();
  }

  private static long hookId(ReplaySettings settings) {
    String value = settings.required("hook-id");
    try {
      long id = Long.parseLong(value);
      if (id > 0) {
        return id;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw settings.bad("hook-id", "must be a positive number", value);
  }

  private static GitHubReplayMode mode(ReplaySettings settings, String value) {
    try {
      return GitHubReplayMode.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw settings.bad("mode", "must be redeliver or ingest", value);
    }
  }
}
