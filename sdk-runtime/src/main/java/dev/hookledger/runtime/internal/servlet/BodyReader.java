package dev.hookledger.runtime.internal.servlet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * Reads a request body whole, as raw bytes, and stops as soon as it passes the limit: a body sent
 * chunked (no {@code Content-Length}) is refused after {@code limit + 1} bytes, never buffered whole.
 */
public final class BodyReader {
  private static final int CHUNK = 16 * 1024;

  private BodyReader() {}

  /**
   * @param declaredLength the {@code Content-Length}, or -1 if the body is chunked
   * @return the body, or empty if it is larger than {@code limit}
   */
  public static Optional<byte[]> read(InputStream in, long declaredLength, int limit) throws IOException {
    if (declaredLength > limit) {
      return Optional.empty();
    }
    if (declaredLength >= 0) {
      byte[] body = in.readNBytes((int) declaredLength);
      // a body longer than its Content-Length is the container's to refuse; a shorter one is a broken request
      if (body.length < declaredLength) {
        throw new IOException("body ended after " + body.length + " of " + declaredLength + " bytes");
      }
      return Optional.of(body);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(limit, CHUNK));
    byte[] buffer = new byte[CHUNK];
    int n;
    while ((n = in.read(buffer, 0, Math.min(buffer.length, limit + 1 - out.size()))) > 0) {
      out.write(buffer, 0, n);
      if (out.size() > limit) {
        return Optional.empty();
      }
    }
    return Optional.of(out.toByteArray());
  }
}
