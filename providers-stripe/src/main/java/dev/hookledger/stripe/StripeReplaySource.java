package dev.hookledger.stripe;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.ListedEvent;
import dev.hookledger.spi.ReplayReport;
import dev.hookledger.spi.ReplaySink;
import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.json.JsonFields;
import dev.hookledger.spi.replay.ProviderApiClient;
import dev.hookledger.spi.replay.ReplayRetries;
import dev.hookledger.spi.replay.Sleeper;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays Stripe events from {@code GET /v1/events}: every event created since the given instant,
 * newest first, page by page, each offered to the ledger with the identity {@link StripeEventFields}
 * gives a received delivery, so events that did arrive are skipped there.
 *
 * <pre>{@code
 * ReplaySource source = StripeReplaySource.builder().apiKey(System.getenv("STRIPE_API_KEY")).build();
 * ReplayReport report = source.replay(outageStart, Optional.of("invoice.*"), sink);
 * }</pre>
 *
 * <p>Stripe lists events for 30 days ({@link #RETENTION}); a {@code since} further back is
 * refused rather than silently shortened, so a replay never claims a window it could not read.
 * Fetched events are trusted (the API call is authenticated) and carry no
 * {@link WebhookEvent#secretId() secretId}; their body is the event's JSON exactly as the API sent
 * it, which is not the signed delivery's bytes. Rate-limited answers ({@code 429}) wait
 * {@code Retry-After}, server errors back off; both are retried a bounded number of times.
 *
 * <p>Immutable and thread-safe; one {@link #replay} call runs on the calling thread.
 */
public final class StripeReplaySource implements ReplaySource {
  /** How long Stripe keeps events listable (<a href="https://docs.stripe.com/api/events/list">Stripe: list all events</a>). */
  public static final Duration RETENTION = Duration.ofDays(30);
  /** The Stripe API's largest page. */
  static final int PAGE_SIZE = 100;

  private static final Logger log = LoggerFactory.getLogger(StripeReplaySource.class);

  private final ProviderApiClient api;
  private final URI events;
  private final Boolean deliverySuccess;
  private final Clock clock;

  private StripeReplaySource(Builder b) {
    ProviderApiClient.Builder api =
        ProviderApiClient.builder("Stripe API", b.apiBase)
            .bearer(b.apiKey)
            .retries(b.limits())
            .errorMessage(body -> JsonFields.text(body.path("error"), "message"));
    if (b.account != null) {
      api.header("Stripe-Account", b.account);
    }
    this.api = api.build();
    this.events = URI.create(b.apiBase + "/v1/events");
    this.deliverySuccess = b.deliverySuccess;
    this.clock = b.limits().clock();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String provider() {
    return StripeEventFields.PROVIDER;
  }

  /**
   * {@inheritDoc}
   *
   * @param typeFilter sent as Stripe's {@code type} parameter, where {@code *} is a wildcard
   *     ({@code invoice.*})
   * @throws IllegalArgumentException if {@code since} is more than {@link #RETENTION} ago
   */
  @Override
  public ReplayReport replay(Instant since, Optional<String> typeFilter, ReplaySink sink) {
    requireNonNull(since, "since");
    requireNonNull(typeFilter, "typeFilter");
    requireNonNull(sink, "sink");
    requireRetained(since);
    int fetched = 0;
    int recorded = 0;
    int pages = 0;
    Optional<String> cursor = Optional.empty();
    StripeReplayPage page;
    do {
      page = StripeReplayPage.read(api.get(pageUri(since, typeFilter, cursor)).body());
      pages++;
      for (WebhookEvent event : page.events()) {
        fetched++;
        if (sink.offer(event)) {
          recorded++;
        }
      }
      log.debug("stripe replay: page {} held {} events, has_more={}", pages, page.events().size(), page.hasMore());
      cursor = page.lastId();
    } while (page.hasMore() && cursor.isPresent());
    ReplayReport report = new ReplayReport(fetched, recorded, fetched - recorded, 0, pages);
    log.info(
        "stripe replay since {}: {} events fetched in {} pages, {} recorded, {} already received",
        since, fetched, pages, recorded, report.alreadyReceived());
    return report;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Every event created in the window, by {@code GET /v1/events}; an event whose
   * {@code pending_webhooks} is above zero has not been delivered to every endpoint yet
   * ({@link ListedEvent.Delivery#PENDING}; Stripe does not say which endpoint), else it is
   * {@link ListedEvent.Delivery#DELIVERED}.
   *
   * @throws IllegalArgumentException if {@code since} is more than {@link #RETENTION} ago
   */
  @Override
  public List<ListedEvent> list(Instant since, Instant until) {
    requireNonNull(since, "since");
    requireNonNull(until, "until");
    requireRetained(since);
    List<ListedEvent> listed = new ArrayList<>();
    Optional<String> cursor = Optional.empty();
    StripeReplayPage page;
    do {
      page = StripeReplayPage.read(api.get(pageUri(since, Optional.of(until), Optional.empty(), cursor)).body());
      for (WebhookEvent e : page.events()) {
        long pending = e.payload().path("pending_webhooks").asLong(0);
        listed.add(new ListedEvent(e.scope(), e.eventId(), e.type(), e.occurredAt().orElse(since),
            pending > 0 ? ListedEvent.Delivery.PENDING : ListedEvent.Delivery.DELIVERED, "pending_webhooks=" + pending));
      }
      cursor = page.lastId();
    } while (page.hasMore() && cursor.isPresent());
    return List.copyOf(listed);
  }

  private void requireRetained(Instant since) {
    Instant earliest = clock.instant().minus(RETENTION).truncatedTo(ChronoUnit.SECONDS);
    if (since.isBefore(earliest)) {
      throw new IllegalArgumentException(
          "since " + since + " is more than 30 days ago: Stripe keeps events for 30 days, so a replay can start at "
              + earliest + " at the earliest");
    }
  }

  private URI pageUri(Instant since, Optional<String> typeFilter, Optional<String> cursor) {
    return pageUri(since, Optional.empty(), typeFilter, cursor);
  }

  private URI pageUri(Instant since, Optional<Instant> until, Optional<String> typeFilter, Optional<String> cursor) {
    StringBuilder query = new StringBuilder();
    param(query, "created[gte]", Long.toString(since.getEpochSecond()));
    until.ifPresent(u -> param(query, "created[lt]", Long.toString(u.getEpochSecond())));
    param(query, "limit", Integer.toString(PAGE_SIZE));
    typeFilter.filter(t -> !t.equals("*")).ifPresent(t -> param(query, "type", t));
    if (deliverySuccess != null) {
      param(query, "delivery_success", deliverySuccess.toString());
    }
    cursor.ifPresent(id -> param(query, "starting_after", id));
    return URI.create(events + "?" + query);
  }

  private static void param(StringBuilder query, String name, String value) {
    if (query.length() > 0) {
      query.append('&');
    }
    query.append(URLEncoder.encode(name, StandardCharsets.UTF_8))
        .append('=')
        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
  }

  /** Configures a {@link StripeReplaySource}; {@link #apiKey} is required. */
  public static final class Builder {
    private ReplayRetries retries = ReplayRetries.defaults();
    private String apiKey;
    private URI apiBase = URI.create("https://api.stripe.com");
    private String account;
    private Boolean deliverySuccess;

    private Builder() {}

    /** A secret ({@code sk_...}) or restricted ({@code rk_...}) key that may read events; never logged. */
    public Builder apiKey(String apiKey) {
      requireNonNull(apiKey, "apiKey");
      if (apiKey.isBlank()) {
        throw new IllegalArgumentException("apiKey must not be blank");
      }
      this.apiKey = apiKey.trim();
      return this;
    }

    /** The API's base URL; default {@code https://api.stripe.com}. */
    public Builder apiBase(URI apiBase) {
      this.apiBase = ProviderApiClient.baseUri("apiBase", requireNonNull(apiBase, "apiBase").toString());
      return this;
    }

    /** Lists the events of this connected account ({@code Stripe-Account} header); default: the key's own. */
    public Builder account(String account) {
      requireNonNull(account, "account");
      if (!account.startsWith("acct_") || account.length() == "acct_".length()) {
        throw new IllegalArgumentException("account must be a Stripe account id (acct_...), but was '" + account + "'");
      }
      this.account = account;
      return this;
    }

    /**
     * Stripe's {@code delivery_success} filter: {@code false} lists only events that are pending or
     * failed for at least one endpoint, {@code true} only delivered ones; null (the default) lists all.
     */
    public Builder deliverySuccess(Boolean deliverySuccess) {
      this.deliverySuccess = deliverySuccess;
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

    /** @throws IllegalStateException if no API key was given */
    public StripeReplaySource build() {
      if (apiKey == null) {
        throw new IllegalStateException("apiKey is required");
      }
      return new StripeReplaySource(this);
    }
  }
}
