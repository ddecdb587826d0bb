package dev.hookledger;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One HTTP request as a provider sent it, before anything is verified: method, path, headers and
 * the body's exact bytes. Signatures are computed over these bytes, so nothing may re-encode them.
 *
 * <p>Immutable and thread-safe. {@link #body()} is a read-only view, not a copy.
 */
public final class InboundDelivery {
  private final String method;
  private final String path;
  private final String providerPath;
  private final HttpHeaders headers;
  private final byte[] body;

  private InboundDelivery(String method, String path, String providerPath, HttpHeaders headers, byte[] body) {
    this.method = method;
    this.path = path;
    this.providerPath = providerPath;
    this.headers = headers;
    this.body = body;
  }

  /**
   * A delivery whose body array the caller hands over and will not touch again (no copy is made;
   * bodies can be large).
   */
  public static InboundDelivery of(String method, String path, HttpHeaders headers, byte[] body) {
    return new InboundDelivery(
        requireNonNull(method, "method"),
        requireNonNull(path, "path"),
        "",
        requireNonNull(headers, "headers"),
        requireNonNull(body, "body"));
  }

  /** A POST of a UTF-8 body, as tests and test signers build it. */
  public static InboundDelivery post(String path, HttpHeaders headers, String body) {
    return of("POST", path, headers, requireNonNull(body, "body").getBytes(StandardCharsets.UTF_8));
  }

  /** The HTTP method, as sent. */
  public String method() {
    return method;
  }

  /** The request path without the query string, e.g. {@code /webhooks/stripe}. */
  public String path() {
    return path;
  }

  /**
   * The part of the path after the provider's own segment: {@code /acct_123} for a delivery to
   * {@code /webhooks/stripe/acct_123}, empty for {@code /webhooks/stripe}, whatever the prefix the
   * application mounts its webhooks under. Set by the runtime's filter, which alone knows that
   * prefix, so that an adapter reading a tenant from the path ({@link
   * dev.hookledger.spi.ProviderAdapter#tenantOf}) never assumes one. Empty for a delivery built
   * with {@link #of} until {@link #withProviderPath} sets it.
   */
  public String providerPath() {
    return providerPath;
  }

  /**
   * This delivery with {@link #providerPath()} set (the body is shared, not copied).
   *
   * @param providerPath empty, or starting with {@code /}
   * @throws IllegalArgumentException naming a non-empty value that does not start with {@code /}
   */
  public InboundDelivery withProviderPath(String providerPath) {
    requireNonNull(providerPath, "providerPath");
    if (!providerPath.isEmpty() && !providerPath.startsWith("/")) {
      throw new IllegalArgumentException("providerPath must be empty or start with '/', but was '" + providerPath + "'");
    }
    return new InboundDelivery(method, path, providerPath, headers, body);
  }

  public HttpHeaders headers() {
    return headers;
  }

  /** A read-only view of the body's exact bytes, positioned at 0. */
  public ByteBuffer body() {
    return ByteBuffer.wrap(body).asReadOnlyBuffer();
  }

  /** A copy of the body's exact bytes. */
  public byte[] bodyBytes() {
    return Arrays.copyOf(body, body.length);
  }

  public int bodyLength() {
    return body.length;
  }

  /** Method, path and header names only: the body and header values never reach a log. */
  @Override
  public String toString() {
    return method + " " + path + " " + headers + " (" + body.length + " bytes)";
  }
}
