package dev.hookledger;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An HTTP request to send after the handler's transaction commits, enqueued with
 * {@link Outbox#send(HttpEffect)}: to a path under a named destination (whose URL, timeouts, attempts,
 * rate and idempotency header the runtime's builder sets), or to an absolute URL (whose destination
 * is then its origin, {@code https://api.example.com}, with the default settings).
 *
 * <pre>{@code
 * HttpEffect receipt = HttpEffect.to("receipts", "/v1/receipts")
 *     .json("{\"invoice\":\"in_123\"}")
 *     .name("receipt")
 *     .build();
 * }</pre>
 *
 * <p>The body is copied when set and frozen with the effect: what is sent on every attempt is what
 * the handler wrote. The effect's idempotency key is added by the sender in the destination's
 * header; a header of that name set here is replaced by it. Immutable and thread-safe.
 */
public final class HttpEffect {
  /** Headers the JDK's HTTP client sets itself and refuses from callers. */
  private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  private static final byte[] EMPTY = new byte[0];

  private final String destination;
  private final String path;
  private final URI url;
  private final String method;
  private final Map<String, String> headers;
  private final byte[] body;
  private final String contentType;
  private final String name;
  private final String orderingKey;

  private HttpEffect(Builder b) {
    this.destination = b.destination;
    this.path = b.path;
    this.url = b.url;
    this.method = b.method;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(b.headers));
    this.body = b.body;
    this.contentType = b.contentType;
    this.name = b.name;
    this.orderingKey = b.orderingKey;
  }

  /**
   * A request to {@code path} under the named destination's URL; {@code POST} unless told otherwise.
   *
   * @param destination a destination registered on the runtime's builder
   * @param path the path (and query) under the destination's URL, starting with {@code /}
   */
  public static Builder to(String destination, String path) {
    requireNonNull(destination, "destination");
    requireNonNull(path, "path");
    if (destination.isBlank()) {
      throw new IllegalArgumentException("destination must not be blank");
    }
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("path must start with '/', but was '" + path + "'");
    }
    return new Builder(destination, path, null);
  }

  /**
   * A request to an absolute {@code http} or {@code https} URL, whose destination is its origin;
   * {@code POST} unless told otherwise.
   */
  public static Builder toUrl(URI url) {
    requireNonNull(url, "url");
    if (!url.isAbsolute() || url.getHost() == null
        || !("http".equalsIgnoreCase(url.getScheme()) || "https".equalsIgnoreCase(url.getScheme()))) {
      throw new IllegalArgumentException("url must be an absolute http or https URL, but was '" + url + "'");
    }
    String origin = url.getScheme().toLowerCase(Locale.ROOT) + "://" + url.getHost().toLowerCase(Locale.ROOT)
        + (url.getPort() < 0 ? "" : ":" + url.getPort());
    return new Builder(origin, null, url);
  }

  /**
   * The destination's name: the one given to {@link #to}, or the origin of the URL given to
   * {@link #toUrl} ({@code https://api.example.com}). Never null.
   */
  public String destination() {
    return destination;
  }

  /** The path under the destination's URL; empty for an absolute URL. */
  public Optional<String> path() {
    return Optional.ofNullable(path);
  }

  /** The absolute URL; empty for a path under a named destination. */
  public Optional<URI> url() {
    return Optional.ofNullable(url);
  }

  /** The HTTP method, upper case; never null. */
  public String method() {
    return method;
  }

  /** The request's headers, in the order set, one value each; never null. */
  public Map<String, String> headers() {
    return headers;
  }

  /** A copy of the body; empty for none. */
  public byte[] body() {
    return body.clone();
  }

  /** The body's media type, sent as {@code Content-Type}; empty for none. */
  public Optional<String> contentType() {
    return Optional.ofNullable(contentType);
  }

  /** The effect's name within its handler; empty if it is named by the ordinal of its {@code send}. */
  public Optional<String> name() {
    return Optional.ofNullable(name);
  }

  /** The key whose effects are sent one at a time in commit order; empty for none (the default). */
  public Optional<String> orderingKey() {
    return Optional.ofNullable(orderingKey);
  }

  @Override
  public String toString() {
    // never the body nor the headers' values: they may carry personal data or credentials
    return "HttpEffect[" + method + " " + (url != null ? url : destination + path)
        + (name == null ? "" : ", name=" + name) + "]";
  }

  /** Builds an {@link HttpEffect}; each setter names a bad value. Not thread-safe. */
  public static final class Builder {
    private final String destination;
    private final String path;
    private final URI url;
    private String method = "POST";
    private final Map<String, String> headers = new LinkedHashMap<>();
    private byte[] body = EMPTY;
    private String contentType;
    private String name;
    private String orderingKey;

    private Builder(String destination, String path, URI url) {
      this.destination = destination;
      this.path = path;
      this.url = url;
    }

    /** The HTTP method, a token such as {@code POST}, {@code PUT}, {@code DELETE}; default {@code POST}. */
    public Builder method(String method) {
      requireNonNull(method, "method");
      if (!TOKEN.matcher(method).matches()) {
        throw new IllegalArgumentException("method must be an HTTP token such as POST, but was '" + method + "'");
      }
      this.method = method.toUpperCase(Locale.ROOT);
      return this;
    }

    /**
     * Sets a header, replacing one of the same name (compared ignoring case). The client's own
     * headers ({@code Connection}, {@code Content-Length}, {@code Expect}, {@code Host},
     * {@code Upgrade}) are refused; {@code Content-Type} is set by {@link #body}.
     */
    public Builder header(String name, String value) {
      requireNonNull(name, "name");
      requireNonNull(value, "value");
      String lower = name.toLowerCase(Locale.ROOT);
      if (!TOKEN.matcher(name).matches()) {
        throw new IllegalArgumentException("header name must be an HTTP token, but was '" + name + "'");
      }
      if (RESTRICTED.contains(lower)) {
        throw new IllegalArgumentException("header " + name + " is set by the HTTP client and cannot be set here");
      }
      if (lower.equals("content-type")) {
        throw new IllegalArgumentException("header Content-Type is set with body(bytes, contentType) or json(...)");
      }
      if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("header " + name + " must not hold a line break");
      }
      headers.keySet().removeIf(k -> k.equalsIgnoreCase(name));
      headers.put(name, value);
      return this;
    }

    /** The body, copied now, and its media type ({@code application/xml}, say). */
    public Builder body(byte[] body, String contentType) {
      requireNonNull(body, "body");
      requireNonNull(contentType, "contentType");
      if (contentType.isBlank() || contentType.indexOf('\r') >= 0 || contentType.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("contentType must be a media type, but was '" + contentType + "'");
      }
      this.body = body.clone();
      this.contentType = contentType;
      return this;
    }

    /** A JSON body, sent as UTF-8 with {@code Content-Type: application/json}. */
    public Builder json(String json) {
      requireNonNull(json, "json");
      return body(json.getBytes(StandardCharsets.UTF_8), "application/json");
    }

    /**
     * The effect's name within its handler, part of its idempotency key; default: the ordinal of its
     * {@code send} within the handler's invocation.
     */
    public Builder name(String name) {
      requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank");
      }
      this.name = name;
      return this;
    }

    /**
     * Sends this effect after every earlier effect of the same destination and key (in commit
     * order) is settled, and before every later one; a failing effect holds only its own key.
     */
    public Builder orderingKey(String orderingKey) {
      requireNonNull(orderingKey, "orderingKey");
      if (orderingKey.isEmpty()) {
        throw new IllegalArgumentException("orderingKey must not be empty");
      }
      this.orderingKey = orderingKey;
      return this;
    }

    public HttpEffect build() {
      return new HttpEffect(this);
    }
  }
}
