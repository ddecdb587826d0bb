package dev.hookledger.github;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookException;
import dev.hookledger.spi.ListedEvent;
import dev.hookledger.spi.ReplayReport;
import dev.hookledger.spi.ReplaySink;
import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.json.JsonFields;
import dev.hookledger.spi.replay.ApiResponse;
import dev.hookledger.spi.replay.ProviderApiClient;
import dev.hookledger.spi.replay.ReplayRetries;
import dev.hookledger.spi.replay.Sleeper;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays GitHub webhook deliveries that never succeeded, from one hook's deliveries API
 * (repository, organization or GitHub App hook): it lists the deliveries since the given instant,
 * groups the attempts by event ({@code guid}), and for each event none of whose attempts was
 * answered 2xx, and that the ledger does not already have, asks GitHub to redeliver it. The
 * redelivery arrives signed through the endpoint like any other, so nothing bypasses the
 * signature check. GitHub never retries on its own, so this is the only way back for a delivery
 * missed during an outage.
 *
 * <pre>{@code
 * ReplaySource source = GitHubReplaySource.builder()
 *     .token(System.getenv("GITHUB_TOKEN"))
 *     .repositoryHook("octo-org/hello-world", 12345678)
 *     .build();
 * ReplayReport report = source.replay(outageStart, Optional.empty(), sink);
 * }</pre>
 *
 * <p>GitHub keeps deliveries for 3 days (7 on GitHub Enterprise Server); older ones cannot be
 * redelivered. With {@link GitHubReplayMode#INGEST} the missed events are fetched and offered to
 * the ledger instead, see there for the trade-off. The report counts events (guids): fetched are
 * those attempted in the window, matching the type filter; redelivered, recorded and already
 * received are among the missed ones. A type filter matches the adapter's type
 * ({@code issues.opened}) or the bare event ({@code issues}), with {@code *} as a wildcard.
 *
 * <p>Rate-limited answers (403 or 429 with {@code x-ratelimit-remaining: 0} or
 * {@code retry-after}) wait as GitHub asks, within bounds; server errors back off. Immutable and
 * thread-safe; one {@link #replay} call runs on the calling thread.
 */
public final class GitHubReplaySource implements ReplaySource {
  private static final Logger log = LoggerFactory.getLogger(GitHubReplaySource.class);

  private final ProviderApiClient api;
  private final URI base;
  private final GitHubReplayHook hook;
  private final GitHubReplayMode mode;

  private GitHubReplaySource(Builder b) {
    this.base = b.apiBase;
    this.hook = b.hook;
    this.mode = b.mode;
    this.api =
        ProviderApiClient.builder("GitHub API", b.apiBase)
            .bearer(b.token)
            .header("Accept", "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .rateLimited(GitHubReplaySource::rateLimited)
            .errorMessage(body -> JsonFields.text(body, "message"))
            .retries(b.limits())
            .build();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String provider() {
    return GitHubEventFields.PROVIDER;
  }

  @Override
  public ReplayReport replay(Instant since, Optional<String> typeFilter, ReplaySink sink) {
    requireNonNull(since, "since");
    requireNonNull(typeFilter, "typeFilter");
    requireNonNull(sink, "sink");
    GitHubReplayDeliveries.Window window = GitHubReplayDeliveries.read(api, hook.list(base), since, typeFilter);
    Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
    String scope = hook.hookId().orElse(null);
    for (GitHubReplayAttempt missed : window.missed()) {
      try {
        GitHubReplayDelivery fetched = null;
        if (scope == null) {
          fetched = fetch(missed);
          scope = fetched.hookId().orElseThrow(() -> new WebhookException(
              "its request headers do not show X-GitHub-Hook-ID: set the App's hook id"));
        }
        counts.merge(handle(missed, scope, fetched, sink), 1, Integer::sum);
      } catch (WebhookException e) {
        int done = counts.values().stream().mapToInt(Integer::intValue).sum();
        throw new WebhookException(
            "GitHub replay stopped at delivery " + missed.id() + " (" + done + " of " + window.missed().size()
                + " missed events handled): " + e.getMessage(), e);
      }
    }
    ReplayReport report = new ReplayReport(
        window.events(),
        counts.getOrDefault(Outcome.RECORDED, 0),
        counts.getOrDefault(Outcome.ALREADY_RECEIVED, 0),
        counts.getOrDefault(Outcome.REDELIVERED, 0),
        window.pages());
    log.info(
        "github replay of {} since {}: {} events in {} pages, {} missed: {} redelivered, {} recorded, {} already received",
        hook.description(), since, report.fetched(), report.pages(), window.missed().size(), report.redelivered(),
        report.recorded(), report.alreadyReceived());
    return report;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Every event (guid) of which the hook's deliveries API lists an attempt in the window, as
   * {@link ListedEvent.Delivery#DELIVERED} if any attempt was answered 2xx, else
   * {@link ListedEvent.Delivery#FAILED} with the newest attempt's {@code status_code} (or
   * {@code status}). GitHub keeps deliveries for 3 days (7 on GitHub Enterprise Server).
   */
  @Override
  public List<ListedEvent> list(Instant since, Instant until) {
    requireNonNull(since, "since");
    requireNonNull(until, "until");
    GitHubReplayDeliveries.Window window = GitHubReplayDeliveries.read(api, hook.list(base), since, Optional.empty());
    String scope = hook.hookId().orElse(null);
    List<ListedEvent> listed = new ArrayList<>();
    for (GitHubReplayAttempt a : window.newest()) {
      if (!a.deliveredAt().isBefore(until)) {
        continue;
      }
      if (scope == null) {
        scope = fetch(a).hookId().orElseThrow(() -> new WebhookException(
            "its request headers do not show X-GitHub-Hook-ID: set the App's hook id"));
      }
      boolean delivered = window.delivered().contains(a.guid());
      listed.add(new ListedEvent(scope, a.guid(), a.type(), a.deliveredAt(),
          delivered ? ListedEvent.Delivery.DELIVERED : ListedEvent.Delivery.FAILED, a.outcome()));
    }
    return List.copyOf(listed);
  }

  private enum Outcome { ALREADY_RECEIVED, REDELIVERED, RECORDED }

  /** Redelivers or ingests one missed event unless the ledger has it; {@code fetched} may be null. */
  private Outcome handle(GitHubReplayAttempt missed, String scope, GitHubReplayDelivery fetched, ReplaySink sink) {
    if (sink.alreadyReceived(provider(), scope, missed.guid())) {
      return Outcome.ALREADY_RECEIVED;
    }
    if (mode == GitHubReplayMode.REDELIVER) {
      api.post(hook.attempts(base, missed.id()));
      log.debug("github replay: asked GitHub to redeliver {} (delivery {})", missed.guid(), missed.id());
      return Outcome.REDELIVERED;
    }
    GitHubReplayDelivery delivery = fetched != null ? fetched : fetch(missed);
    return sink.offer(delivery.event(missed, scope)) ? Outcome.RECORDED : Outcome.ALREADY_RECEIVED;
  }

  private GitHubReplayDelivery fetch(GitHubReplayAttempt attempt) {
    return GitHubReplayDelivery.read(attempt.id(), api.get(hook.delivery(base, attempt.id())).body());
  }

  /** GitHub's primary and secondary rate limits (REST API docs, "Rate limits"). */
  private static boolean rateLimited(ApiResponse response) {
    return response.status() == 429
        || (response.status() == 403
            && (response.header("x-ratelimit-remaining").filter("0"::equals).isPresent()
                || response.header("retry-after").isPresent()));
  }

  /** Configures a {@link GitHubReplaySource}; a token and one hook are required. */
  public static final class Builder {
    private ReplayRetries retries = ReplayRetries.defaults();
    private String token;
    private URI apiBase = URI.create("https://api.github.com");
    private GitHubReplayHook hook;
    private GitHubReplayMode mode = GitHubReplayMode.REDELIVER;

    private Builder() {}

    /**
     * The credential, sent as {@code Authorization: Bearer}: a token with admin rights on the
     * repository's or organization's hooks, or for an App hook the App's JWT. Never logged.
     */
    public Builder token(String token) {
      requireNonNull(token, "token");
      if (token.isBlank()) {
        throw new IllegalArgumentException("token must not be blank");
      }
      this.token = token.trim();
      return this;
    }

    /** The API's base URL: {@code https://api.github.com} (the default) or {@code https://HOST/api/v3}. */
    public Builder apiBase(URI apiBase) {
      this.apiBase = ProviderApiClient.baseUri("apiBase", requireNonNull(apiBase, "apiBase").toString());
      return this;
    }

    /** Replays the hook {@code hookId} of {@code repository} ({@code owner/name}). */
    public Builder repositoryHook(String repository, long hookId) {
      this.hook = GitHubReplayHook.repository(requireNonNull(repository, "repository"), hookId);
      return this;
    }

    /** Replays the hook {@code hookId} of {@code organization}. */
    public Builder organizationHook(String organization, long hookId) {
      this.hook = GitHubReplayHook.organization(requireNonNull(organization, "organization"), hookId);
      return this;
    }

    /**
     * Replays the GitHub App's hook (the token must be the App's JWT). The App's hook id, the
     * ledger scope of its events, is read from a delivery's {@code X-GitHub-Hook-ID}.
     */
    public Builder appHook() {
      this.hook = GitHubReplayHook.app(Optional.empty());
      return this;
    }

    /** Replays the GitHub App's hook, whose id is known; saves reading it from a delivery. */
    public Builder appHook(long hookId) {
      this.hook = GitHubReplayHook.app(Optional.of(hookId));
      return this;
    }

    /** What to do with a missed delivery; default {@link GitHubReplayMode#REDELIVER}. */
    public Builder mode(GitHubReplayMode mode) {
      this.mode = requireNonNull(mode, "mode");
      return this;
    }

    /** Calls per request, retries included; default 5. */
    public Builder maxAttempts(int maxAttempts) {
      retries = retries.withMaxAttempts(maxAttempts);
      return this;
    }

    /**
     * The longest single wait before a retry; a provider asking to wait longer fails the replay
     * with a clear error instead. Default one minute.
     */
    public Builder maxWait(Duration maxWait) {
      retries = retries.withMaxWait(maxWait);
      return this;
    }

    /** The clock for retention checks and rate-limit reset times; default the UTC system clock. */
    public Builder clock(Clock clock) {
      retries = retries.withClock(requireNonNull(clock, "clock"));
      return this;
    }

    /** How to wait before a retry: for this package's tests, which record instead of sleeping. */
    Builder sleeper(Sleeper sleeper) {
      retries = retries.withSleeper(sleeper);
      return this;
    }

    private ReplayRetries limits() {
      return retries;
    }

    /** @throws IllegalStateException if the token or the hook is missing */
    public GitHubReplaySource build() {
      if (token == null) {
        throw new IllegalStateException("token is required");
      }
      if (hook == null) {
        throw new IllegalStateException("a hook is required: repositoryHook, organizationHook or appHook");
      }
      return new GitHubReplaySource(this);
    }
  }
}
