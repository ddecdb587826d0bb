package dev.hookledger.runtime.internal.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a request body whole, as raw bytes, within a provider's limit, the runtime's
 * {@link BodyBudget} and a {@link ReadDeadline}. Bytes are reserved as they arrive, never from the
 * declared {@code Content-Length}: a client that declares a large body and trickles it holds only
 * what it sent, so that a few such clients cannot starve every other delivery (seen here: eleven
 * slow posts with forged signatures held a 256 MiB budget). A body declared larger than the limit
 * is refused unread; one declared larger than a body's share of the budget is answered as an
 * exhausted budget, unread. A body of at most one chunk with a {@code Content-Length} is read into
 * one array of exactly its size; a longer one, or a chunked one, is copied once into an array of its
 * size, the copy reserved too. A chunked body stops past the limit ({@code limit + 1} bytes, never
 * buffered whole).
 */
public final class BodyReader {
  private static final int CHUNK = 64 * 1024;

  private BodyReader() {}

  /**
   * Reads the body of one request.
   *
   * @param declaredLength the {@code Content-Length}, or -1 if the body is chunked
   * @return what was read, holding its reservation until {@linkplain BodyRead#close() closed}, also
   *     when reading stopped early (the prefix read stays accounted while anyone holds it)
   * @throws IOException if the body cannot be read or ends before its {@code Content-Length}
   *     (nothing stays reserved)
   */
  public static BodyRead read(InputStream in, long declaredLength, int limit, BodyBudget budget, ReadDeadline deadline)
      throws IOException {
    if (declaredLength > limit) {
      return BodyRead.unread(BodyRead.Status.TOO_LARGE);
    }
    if (declaredLength > budget.perBody()) {
      return BodyRead.unread(BodyRead.Status.OVER_BUDGET);
    }
    long max = declaredLength >= 0 ? declaredLength : limit + 1L;
    Chunks chunks = new Chunks(budget);
    try (ReadDeadline.Watch watch = deadline.start()) {
      BodyRead.Status stopped = readUpTo(in, max, chunks, watch);
      if (stopped != null) {
        return chunks.partial(stopped);
      }
      if (declaredLength >= 0 && chunks.length < declaredLength) {
        // a body longer than its Content-Length is the container's to refuse; a shorter one is a broken request
        throw new IOException("body ended after " + chunks.length + " of " + declaredLength + " bytes");
      }
      return chunks.length > limit ? chunks.partial(BodyRead.Status.TOO_LARGE) : chunks.whole();
    } catch (IOException | RuntimeException e) {
      chunks.releaseAll();
      throw e;
    }
  }

  /** Reads until {@code max} bytes or the end; returns why it stopped early, or null. */
  private static BodyRead.Status readUpTo(InputStream in, long max, Chunks chunks, ReadDeadline.Watch watch)
      throws IOException {
    while (chunks.length < max) {
      byte[] chunk = chunks.room(max);
      int n;
      try {
        n = in.read(chunk, chunks.filled, chunk.length - chunks.filled);
      } catch (IOException e) {
        if (watch.expired()) {
          return BodyRead.Status.TIMED_OUT;
        }
        throw e;
      }
      if (watch.expired()) {
        return BodyRead.Status.TIMED_OUT;
      }
      if (n < 0) {
        return null;
      }
      if (!chunks.reserve(n)) {
        return BodyRead.Status.OVER_BUDGET;
      }
    }
    return null;
  }

  /** The chunks of a body read so far, and the bytes they hold reserved: exactly the bytes received. */
  private static final class Chunks {
    private final BodyBudget budget;
    private final List<byte[]> arrays = new ArrayList<>();
    private long length;
    private long reserved;
    private int filled;

    Chunks(BodyBudget budget) {
      this.budget = budget;
    }

    /** The chunk to read into: the last one while it has room, else a new one of at most what is left. */
    byte[] room(long max) {
      if (arrays.isEmpty() || filled == arrays.get(arrays.size() - 1).length) {
        arrays.add(new byte[(int) Math.min(CHUNK, max - length)]);
        filled = 0;
      }
      return arrays.get(arrays.size() - 1);
    }

    /**
     * Reserves {@code n} bytes just read into the last chunk, or as many of them as the budget and
     * this body's share can hold (those are kept, as the prefix read); false if not all of them.
     */
    boolean reserve(int n) {
      int got = (int) budget.reserveUpTo(Math.min(n, budget.perBody() - reserved));
      reserved += got;
      length += got;
      filled += got;
      return got == n;
    }

    /** The whole body in one array of its size: reserved as well before copying, or over budget. */
    BodyRead whole() {
      if (arrays.size() == 1 && arrays.get(0).length == length) {
        return new BodyRead(BodyRead.Status.READ, arrays.get(0), budget, reserved);
      }
      if (length == 0) {
        return new BodyRead(BodyRead.Status.READ, new byte[0], budget, 0);
      }
      if (!budget.tryReserve(length)) {
        return partial(BodyRead.Status.OVER_BUDGET);
      }
      byte[] body = join();
      budget.release(reserved);
      return new BodyRead(BodyRead.Status.READ, body, budget, length);
    }

    /**
     * What was read before reading stopped, still reserved: whoever passes the prefix on (SHADOW)
     * holds it until the request is done, so no over-limit prefix lives outside the budget.
     */
    BodyRead partial(BodyRead.Status status) {
      byte[] prefix = join();
      long held = reserved;
      reserved = 0;
      return new BodyRead(status, prefix, budget, held);
    }

    void releaseAll() {
      budget.release(reserved);
      reserved = 0;
    }

    private byte[] join() {
      byte[] out = new byte[(int) length];
      int at = 0;
      for (int i = 0; i < arrays.size(); i++) {
        int n = i == arrays.size() - 1 ? filled : arrays.get(i).length;
        System.arraycopy(arrays.get(i), 0, out, at, n);
        arrays.set(i, null); // let the chunk go while the copy grows
        at += n;
      }
      return out;
    }
  }
}
