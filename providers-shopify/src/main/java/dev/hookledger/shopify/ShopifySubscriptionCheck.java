package dev.hookledger.shopify;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.WebhookException;
import dev.hookledger.spi.json.JsonDocuments;
import dev.hookledger.spi.json.JsonFields;
import dev.hookledger.spi.replay.ApiResponse;
import dev.hookledger.spi.replay.ProviderApiClient;
import dev.hookledger.spi.replay.ReplayRetries;
import dev.hookledger.spi.replay.Sleeper;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks that a shop's webhook subscriptions still exist, the first step of recovering from an
 * outage on Shopify, which cannot replay deliveries and removes a subscription after repeated
 * failed ones (<a href="https://shopify.dev/docs/apps/build/webhooks/troubleshoot">Shopify: troubleshooting webhooks</a>). It lists the subscriptions through the GraphQL Admin API's
 * {@code webhookSubscriptions} query and reports the expected topics that have none.
 *
 * <pre>{@code
 * ShopifySubscriptionCheck check = ShopifySubscriptionCheck.builder()
 *     .shop("acme.myshopify.com")
 *     .accessToken(System.getenv("SHOPIFY_ACCESS_TOKEN"))
 *     .endpoint("https://example.com/webhooks/shopify")
 *     .build();
 * List<String> missing = check.check(List.of("orders/create", "app/uninstalled")).missingTopics();
 * }</pre>
 *
 * <p>The query sees only the subscriptions the app created through the API, not those declared in
 * the app's TOML configuration. It reads the {@code uri} field, which needs API version 2025-10 or
 * later ({@link #DEFAULT_API_VERSION} by default). Immutable and thread-safe.
 */
public final class ShopifySubscriptionCheck {
  /** The Admin API version queried unless another is set. */
  public static final String DEFAULT_API_VERSION = "2025-10";

  static final String QUERY =
      "query hookledgerSubscriptions($after: String) { webhookSubscriptions(first: 100, after: $after) "
          + "{ edges { node { id topic uri } } pageInfo { hasNextPage endCursor } } }";
  private static final Logger log = LoggerFactory.getLogger(ShopifySubscriptionCheck.class);
  private static final Pattern SHOP = Pattern.compile("[a-z0-9][a-z0-9-]*\\.myshopify\\.com");
  private static final Pattern VERSION = Pattern.compile("\\d{4}-\\d{2}|unstable");

  private final ProviderApiClient api;
  private final URI graphql;
  private final String shop;
  private final String endpoint;

  /**
   * One webhook subscription as the shop reports it.
   *
   * @param id its GraphQL id ({@code gid://shopify/WebhookSubscription/1})
   * @param topic its topic as the GraphQL enum ({@code ORDERS_CREATE})
   * @param uri where it delivers; null where the API version does not report it
   */
  public record Subscription(String id, String topic, String uri) {}

  /**
   * What the check found.
   *
   * @param subscriptions every subscription listed, in the API's order
   * @param missingTopics the expected topics (as GraphQL enums) with no subscription to the
   *     endpoint, in the order they were asked for; empty when all are there
   */
  public record Result(List<Subscription> subscriptions, List<String> missingTopics) {
    public Result {
      subscriptions = List.copyOf(subscriptions);
      missingTopics = List.copyOf(missingTopics);
    }
  }

  private ShopifySubscriptionCheck(Builder b) {
    this.shop = b.shop;
    this.endpoint = b.endpoint;
    URI base = b.apiBase != null ? b.apiBase : URI.create("https://" + b.shop);
    this.graphql = URI.create(base + "/admin/api/" + b.apiVersion + "/graphql.json");
    this.api =
        ProviderApiClient.builder("Shopify Admin API", base)
            .credential("X-Shopify-Access-Token", "", b.accessToken)
            .rateLimited(ShopifySubscriptionCheck::throttled)
            .errorMessage(ShopifySubscriptionCheck::errorMessage)
            .retries(b.limits())
            .build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Lists the shop's subscriptions and reports which of {@code topics} have none (to the
   * endpoint, if one was set).
   *
   * @param topics webhook topics as sent in {@code X-Shopify-Topic} ({@code orders/create}) or as
   *     GraphQL enums ({@code ORDERS_CREATE})
   * @throws WebhookException with Shopify's message when the API refuses or the query fails
   */
  public Result check(Collection<String> topics) {
    Set<String> expected = new LinkedHashSet<>();
    requireNonNull(topics, "topics").forEach(t -> expected.add(topicEnum(t)));
    List<Subscription> subscriptions = new ArrayList<>();
    Optional<String> after = Optional.empty();
    do {
      JsonNode connection = page(after);
      connection.path("edges").forEach(edge -> subscriptions.add(subscription(edge.path("node"))));
      JsonNode pageInfo = connection.path("pageInfo");
      after = pageInfo.path("hasNextPage").asBoolean(false)
          ? Optional.ofNullable(JsonFields.text(pageInfo, "endCursor"))
          : Optional.empty();
    } while (after.isPresent());
    subscriptions.stream()
        .filter(s -> endpoint == null || endpoint.equals(s.uri()))
        .forEach(s -> expected.remove(s.topic()));
    log.info("shopify subscription check of {}: {} subscriptions, missing topics {}", shop, subscriptions.size(), expected);
    return new Result(subscriptions, List.copyOf(expected));
  }

  /** {@code orders/create} → {@code ORDERS_CREATE}; an enum stays as it is. */
  static String topicEnum(String topic) {
    requireNonNull(topic, "topic");
    if (topic.isBlank()) {
      throw new IllegalArgumentException("topic must not be blank");
    }
    return topic.trim().replace('/', '_').toUpperCase(Locale.ROOT);
  }

  private JsonNode page(Optional<String> after) {
    ObjectNode request = JsonNodeFactory.instance.objectNode().put("query", QUERY);
    ObjectNode variables = request.putObject("variables");
    after.ifPresent(cursor -> variables.put("after", cursor));
    byte[] body = api.post(graphql, request.toString().getBytes(StandardCharsets.UTF_8)).body();
    JsonNode answer;
    try {
      answer = JsonDocuments.parse(body);
    } catch (IOException e) {
      throw new WebhookException("Shopify Admin API webhookSubscriptions query answered with a body that is not JSON");
    }
    String error = errorMessage(answer);
    if (error != null) {
      throw new WebhookException("Shopify Admin API webhookSubscriptions query failed: " + error);
    }
    JsonNode connection = answer.path("data").path("webhookSubscriptions");
    if (!connection.isObject()) {
      throw new WebhookException("Shopify Admin API webhookSubscriptions query answered without data.webhookSubscriptions");
    }
    return connection;
  }

  private static Subscription subscription(JsonNode node) {
    return new Subscription(JsonFields.text(node, "id"), JsonFields.text(node, "topic"), JsonFields.text(node, "uri"));
  }

  /** Shopify's GraphQL errors: a string (401) or a list of objects with a message. */
  private static String errorMessage(JsonNode body) {
    JsonNode errors = body.path("errors");
    if (errors.isTextual()) {
      return errors.asText();
    }
    return errors.isArray() && errors.size() > 0 ? JsonFields.text(errors.get(0), "message") : null;
  }

  /** GraphQL's cost limit answers 200 with an error whose code is THROTTLED. */
  private static boolean throttled(ApiResponse response) {
    if (response.status() == 429) {
      return true;
    }
    try {
      for (JsonNode error : JsonDocuments.parse(response.body()).path("errors")) {
        if ("THROTTLED".equals(error.path("extensions").path("code").asText())) {
          return true;
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
  }

  /** Configures a {@link ShopifySubscriptionCheck}; the shop and the access token are required. */
  public static final class Builder {
    private ReplayRetries retries = ReplayRetries.defaults();
    private String shop;
    private String accessToken;
    private String apiVersion = DEFAULT_API_VERSION;
    private URI apiBase;
    private String endpoint;

    private Builder() {}

    /** The shop's {@code myshopify.com} domain ({@code acme.myshopify.com}). */
    public Builder shop(String shop) {
      requireNonNull(shop, "shop");
      if (!SHOP.matcher(shop).matches()) {
        throw new IllegalArgumentException("shop must be a myshopify.com domain (acme.myshopify.com), but was '" + shop + "'");
      }
      this.shop = shop;
      return this;
    }

    /** The app's Admin API access token for the shop ({@code shpat_...}); never logged. */
    public Builder accessToken(String accessToken) {
      requireNonNull(accessToken, "accessToken");
      if (accessToken.isBlank()) {
        throw new IllegalArgumentException("accessToken must not be blank");
      }
      this.accessToken = accessToken.trim();
      return this;
    }

    /** The Admin API version ({@code 2025-10}, {@code unstable}); default {@link #DEFAULT_API_VERSION}. */
    public Builder apiVersion(String apiVersion) {
      requireNonNull(apiVersion, "apiVersion");
      if (!VERSION.matcher(apiVersion).matches()) {
        throw new IllegalArgumentException("apiVersion must be YYYY-MM or unstable, but was '" + apiVersion + "'");
      }
      this.apiVersion = apiVersion;
      return this;
    }

    /** The API's base URL; default {@code https://<shop>}. */
    public Builder apiBase(URI apiBase) {
      this.apiBase = ProviderApiClient.baseUri("apiBase", requireNonNull(apiBase, "apiBase").toString());
      return this;
    }

    /** Only subscriptions delivering to this URI count; default any. */
    public Builder endpoint(String endpoint) {
      this.endpoint = requireNonNull(endpoint, "endpoint");
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

    /** @throws IllegalStateException if the shop or the access token is missing */
    public ShopifySubscriptionCheck build() {
      if (shop == null || accessToken == null) {
        throw new IllegalStateException("shop and accessToken are required");
      }
      return new ShopifySubscriptionCheck(this);
    }
  }
}
