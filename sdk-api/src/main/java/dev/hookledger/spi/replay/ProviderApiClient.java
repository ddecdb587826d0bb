package dev.hookledger.spi.replay;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.WebhookException;
import dev.hookledger.internal.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Calls one provider's REST API for a replay source: a credential header, bounded retries of
 * rate-limited answers (honouring {@code Retry-After} and GitHub's {@code x-ratelimit-reset}),
 * server errors and broken connections, and errors that carry the provider's own message but never
 * the credential. Built with {@link #builder}.
 *
 * <p>Thread-safe once built. Redirects are not followed, and no request leaves the configured base
 * URL, so the credential only ever goes to the API it was given for.
 */
public final class ProviderApiClient {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  private static final String REDACTED = "[redacted]";

  private final String name;
  private final String base;
  private final String credentialHeader;
  private final String credential;
  private final String secret;
  private final Map<String, String> headers;
  private final Predicate<ApiResponse> rateLimited;
  private final Function<JsonNode, String> errorMessage;
  private final ReplayRetries retries;
  private final HttpClient http;

  private ProviderApiClient(Builder b) {
    this.name = b.name;
    this.base = b.base.toString();
    this.secret = requireNonNull(b.secret, "credential");
    this.credentialHeader = b.credentialHeader;
    this.credential = b.credential;
    this.headers = Map.copyOf(b.headers);
    this.rateLimited = b.rateLimited;
    this.errorMessage = b.errorMessage;
    this.retries = requireNonNull(b.retries, "retries");
    this.http = b.http != null ? b.http : defaultClient();
  }

  /**
   * Starts a client.
   *
   * @param name how errors name the API ({@code Stripe API})
   * @param base the API's base URL, as {@link #baseUri} returns it
   */
  public static Builder builder(String name, URI base) {
    return new Builder(name, base);
  }

  /**
   * Checks and normalises a base URL setting: absolute {@code http} or {@code https} with a host,
   * no query or fragment, no trailing slash.
   *
   * @param setting the setting's name, for the message
   * @throws IllegalArgumentException naming the setting and the value
   */
  public static URI baseUri(String setting, String value) {
    requireNonNull(value, setting);
    try {
      URI uri = new URI(value.trim());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https"))
          && uri.getHost() != null
          && uri.getRawQuery() == null
          && uri.getRawFragment() == null
          && uri.getRawUserInfo() == null) {
        String text = uri.toString();
        return URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
      }
    } catch (java.net.URISyntaxException e) {
      // reported below, with the value
    }
    throw new IllegalArgumentException(
        setting + " must be an absolute http or https URL without query, but was '" + value + "'");
  }

  /** Sends {@code GET uri}; see {@link #send}. */
  public ApiResponse get(URI uri) {
    return send("GET", uri, null);
  }

  /** Sends {@code POST uri} with an empty body; see {@link #send}. */
  public ApiResponse post(URI uri) {
    return send("POST", uri, null);
  }

  /** Sends {@code POST uri} with a JSON body; see {@link #send}. */
  public ApiResponse post(URI uri, byte[] json) {
    return send("POST", uri, requireNonNull(json, "json"));
  }

  /**
   * Sends one request, retrying what the retries allow, and returns the first 2xx answer that is
   * not a rate limit (a GraphQL API can say "throttled" with a 200).
   *
   * @param json the request body, or null for none
   * @throws WebhookException with the status and the provider's message when the API refuses, or
   *     when it is still rate limited, failing or unreachable once the retries are spent
   */
  private ApiResponse send(String method, URI uri, byte[] json) {
    String what = name + " " + method + " " + uri.getRawPath();
    if (!uri.toString().startsWith(base + "/")) {
      throw new WebhookException(
          name + " refuses to send its credential to " + withoutQuery(uri) + ", which is outside " + base);
    }
    HttpRequest request = request(method, uri, json);
    for (int attempt = 1; ; attempt++) {
      boolean last = attempt >= retries.maxAttempts();
      ApiResponse response;
      try {
        response = exchange(request);
      } catch (IOException e) {
        if (last) {
          // the host, so that a wrong base URL or a blocked egress is seen at once
          throw new WebhookException(redact(what + " failed on each of " + attempt + " attempts: cannot reach "
              + uri.getScheme() + "://" + uri.getRawAuthority() + ": " + describe(e)), e);
        }
        pause(retries.backoff(attempt), what);
        continue;
      }
      if (rateLimited.test(response)) {
        pause(rateLimitWait(response, attempt, last, what), what);
      } else if (response.succeeded()) {
        return response;
      } else if (response.status() >= 500 && !last) {
        pause(retries.backoff(attempt), what);
      } else if (response.status() >= 500) {
        throw failure(what + " answered " + response.status() + " on each of " + attempt + " attempts", response);
      } else {
        throw failure(what + " answered " + response.status(), response);
      }
    }
  }

  private Duration rateLimitWait(ApiResponse response, int attempt, boolean last, String what) {
    if (last) {
      throw failure(
          what + " is still rate limited (" + response.status() + ") after " + attempt + " attempts",
          response,
          "; try again later");
    }
    Duration wait = retries.rateLimitWait(response, attempt);
    if (wait.compareTo(retries.maxWait()) > 0) {
      throw failure(
          what + " is rate limited (" + response.status() + ") for " + seconds(wait)
              + ", longer than the " + seconds(retries.maxWait()) + " a replay waits",
          response,
          "; try again later");
    }
    return wait;
  }

  private ApiResponse exchange(HttpRequest request) throws IOException {
    try {
      HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      return new ApiResponse(r.statusCode(), r.headers(), r.body() == null ? new byte[0] : r.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WebhookException(name + " " + request.method() + " " + request.uri().getRawPath() + " was interrupted", e);
    }
  }

  private void pause(Duration wait, String what) {
    try {
      retries.sleeper().sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WebhookException(what + " was interrupted while waiting to retry", e);
    }
  }

  private HttpRequest request(String method, URI uri, byte[] json) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .timeout(REQUEST_TIMEOUT)
            .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(json))
            .header(credentialHeader, credential)
            .header("User-Agent", "hookledger-replay");
    if (json != null) {
      b.header("Content-Type", "application/json");
    }
    headers.forEach(b::header);
    return b.build();
  }

  private WebhookException failure(String message, ApiResponse response) {
    return failure(message, response, "");
  }

  private WebhookException failure(String message, ApiResponse response, String advice) {
    String detail = providerMessage(response).map(m -> ": " + m).orElse(" with no error message");
    return new WebhookException(redact(message + detail + advice));
  }

  /** The provider's own error message, if the body is JSON and has one; never the raw body. */
  private Optional<String> providerMessage(ApiResponse response) {
    try {
      return Optional.ofNullable(errorMessage.apply(Json.parse(response.body())))
          .map(String::strip)
          .filter(m -> !m.isEmpty());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private String redact(String message) {
    return secret.isEmpty() ? message : message.replace(secret, REDACTED);
  }

  private static String describe(IOException e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private static String seconds(Duration d) {
    return d.toSeconds() + " s";
  }

  private static String withoutQuery(URI uri) {
    String text = uri.toString();
    int q = text.indexOf('?');
    return q < 0 ? text : text.substring(0, q);
  }

  private static HttpClient defaultClient() {
    return HttpClient.newBuilder()
        .connectTimeout(CONNECT_TIMEOUT)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /** Configures a {@link ProviderApiClient}. */
  public static final class Builder {
    private final String name;
    private final URI base;
    private String secret;
    private String credentialHeader;
    private String credential;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private Predicate<ApiResponse> rateLimited = r -> r.status() == 429;
    private Function<JsonNode, String> errorMessage = body -> null;
    private ReplayRetries retries;
    private HttpClient http;

    private Builder(String name, URI base) {
      this.name = requireNonNull(name, "name");
      this.base = requireNonNull(base, "base");
    }

    /** The credential, sent as {@code Authorization: Bearer} and kept out of every message. */
    public Builder bearer(String token) {
      return credential("Authorization", "Bearer ", token);
    }

    /**
     * The credential, sent as header {@code name} with value {@code prefix + secret}; the secret
     * is kept out of every message.
     */
    public Builder credential(String name, String prefix, String secret) {
      this.credentialHeader = requireNonNull(name, "name");
      this.secret = requireNonNull(secret, "secret");
      this.credential = requireNonNull(prefix, "prefix") + secret;
      return this;
    }

    /** A header sent with every request. */
    public Builder header(String name, String value) {
      headers.put(requireNonNull(name, "name"), requireNonNull(value, "value"));
      return this;
    }

    /** Which answers mean "rate limited, wait and try again"; default: status 429. */
    public Builder rateLimited(Predicate<ApiResponse> rateLimited) {
      this.rateLimited = requireNonNull(rateLimited, "rateLimited");
      return this;
    }

    /** Reads the provider's error message out of a JSON error body; null where there is none. */
    public Builder errorMessage(Function<JsonNode, String> errorMessage) {
      this.errorMessage = requireNonNull(errorMessage, "errorMessage");
      return this;
    }

    /** How often and how long to retry. */
    public Builder retries(ReplayRetries retries) {
      this.retries = requireNonNull(retries, "retries");
      return this;
    }

    /** The HTTP client; the default follows no redirects. */
    public Builder httpClient(HttpClient http) {
      this.http = requireNonNull(http, "http");
      return this;
    }

    public ProviderApiClient build() {
      return new ProviderApiClient(this);
    }
  }
}
