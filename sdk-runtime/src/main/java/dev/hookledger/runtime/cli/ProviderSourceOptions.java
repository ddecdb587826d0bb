package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.admin.ReplaySources;
import dev.hookledger.spi.ReplaySource;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The provider, the start of the window and the replay source's settings: what replay and reconcile both take. */
final class ProviderSourceOptions {
  @Parameters(index = "0", paramLabel = "PROVIDER", description = "the provider id, as its adapter names it")
  String provider;

  @Option(names = "--since", required = true, paramLabel = "WHEN",
      description = "an ISO instant (2025-03-01T08:00:00Z), a date (UTC midnight) or a duration back from now (2h, 3d)")
  String since;

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "a setting of the provider's replay source (e.g. api-key=...)")
  Map<String, String> settings = new LinkedHashMap<>();

  Instant since(Clock clock) {
    return ReplayCommand.parseSince(since, clock);
  }

  /** The provider's replay source, configured from --set and the environment. */
  ReplaySource source() {
    return ReplaySources.fromEnvironment().create(provider, settings);
  }
}
