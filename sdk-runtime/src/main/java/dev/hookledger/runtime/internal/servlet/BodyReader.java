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
   * What was read of a body.
   *
   * @param bytes the whole body, or, when {@code overLimit}, what was read before reading stopped
   *     (nothing if {@code Content-Length} declared too much; {@code limit + 1} bytes if chunked)
   */
  public record Read(byte[] bytes, boolean overLimit) {}

  /**
   * @param declaredLength the {@code Content-Length}, or -1 if the body is chunked
   * @return the body, or empty if it is larger than {@code limit}
   * @throws IOException if the body cannot be read or ends before its {@code Content-Length}
   */
  public static Optional<byte[]> read(InputStream in, long declaredLength, int limit) throws IOException {
    Read read = readUpTo(in, declaredLength, limit);
    return read.overLimit() ? Optional.empty() : Optional.of(read.bytes());
  }

  /** As {@link #read}, but keeps what was read of a body over the limit (to pass it on whole). */
  public static Read readUpTo(InputStream in, long declaredLength, int limit) throws IOException {
    if (declaredLength > limit) {
      return new Read(new byte[0], true);
    }
    if (declaredLength >= 0) {
      byte[] body = in.readNBytes((int) declaredLength);
      // a body longer than its Content-Length is the container's to refuse; a shorter one is a broken request
      if (body.length < declaredLength) {
        throw new IOException("body ended after " + body.length + " of " + declaredLength + " bytes");
      }
      return new Read(body, false);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(limit, CHUNK));
    byte[] buffer = new byte[CHUNK];
    int n;
    while ((n = in.read(buffer, 0, Math.min(buffer.length, limit + 1 - out.size()))) > 0) {
      out.write(buffer, 0, n);
      if (out.size() > limit) {
        return new Read(out.toByteArray(), true);
      }
    }
    return new Read(out.toByteArray(), false);
  }
}
