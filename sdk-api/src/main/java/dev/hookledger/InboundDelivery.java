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
  private final HttpHeaders headers;
  private final byte[] body;

  private InboundDelivery(String method, String path, HttpHeaders headers, byte[] body) {
    this.method = method;
    this.path = path;
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
