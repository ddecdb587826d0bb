package dev.hookledger.runtime.internal.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a request body whole, as raw bytes, within a provider's limit and the runtime's
 * {@link BodyBudget}. A body with a {@code Content-Length} reserves that many bytes first and is read
 * into one array of exactly its size (no growing buffer, no second copy); a chunked body reserves
 * each chunk before reading it, stops past the limit ({@code limit + 1} bytes, never buffered whole)
 * and is copied once into an array of its size, reserved too. Nothing is read when the budget cannot
 * hold the next bytes.
 */
public final class BodyReader {
  private static final int CHUNK = 64 * 1024;

  private BodyReader() {}

  /**
   * Reads the body of one request.
   *
   * @param declaredLength the {@code Content-Length}, or -1 if the body is chunked
   * @return what was read, holding its reservation until {@linkplain BodyRead#close() closed}
   * @throws IOException if the body cannot be read or ends before its {@code Content-Length}
   *     (nothing stays reserved)
   */
  public static BodyRead read(InputStream in, long declaredLength, int limit, BodyBudget budget) throws IOException {
    if (declaredLength > limit) {
      return BodyRead.unread(BodyRead.Status.TOO_LARGE);
    }
    return declaredLength >= 0 ? declared(in, (int) declaredLength, budget) : chunked(in, limit, budget);
  }

  private static BodyRead declared(InputStream in, int length, BodyBudget budget) throws IOException {
    if (!budget.tryReserve(length)) {
      return BodyRead.unread(BodyRead.Status.OVER_BUDGET);
    }
    byte[] body = new byte[length];
    int n;
    try {
      n = in.readNBytes(body, 0, length);
    } catch (IOException | RuntimeException e) {
      budget.release(length);
      throw e;
    }
    // a body longer than its Content-Length is the container's to refuse; a shorter one is a broken request
    if (n < length) {
      budget.release(length);
      throw new IOException("body ended after " + n + " of " + length + " bytes");
    }
    return new BodyRead(BodyRead.Status.READ, body, budget, length);
  }

  private static BodyRead chunked(InputStream in, int limit, BodyBudget budget) throws IOException {
    Chunks chunks = new Chunks(budget);
    try {
      while (true) {
        int want = (int) budget.reserveUpTo(Math.min(CHUNK, limit + 1L - chunks.length));
        if (want == 0) {
          return chunks.partial(BodyRead.Status.OVER_BUDGET);
        }
        byte[] chunk = new byte[want];
        int n;
        try {
          n = in.readNBytes(chunk, 0, want);
        } catch (IOException | RuntimeException e) {
          budget.release(want);
          throw e;
        }
        chunks.add(chunk, n, want);
        if (chunks.length > limit) {
          return chunks.partial(BodyRead.Status.TOO_LARGE);
        }
        if (n < want) {
          return chunks.whole();
        }
      }
    } catch (IOException | RuntimeException e) {
      chunks.releaseAll();
      throw e;
    }
  }

  /** The chunks of a chunked body read so far, and the bytes they hold reserved. */
  private static final class Chunks {
    private final BodyBudget budget;
    private final List<byte[]> arrays = new ArrayList<>();
    private long length;
    private long reserved;
    private int lastLength;

    Chunks(BodyBudget budget) {
      this.budget = budget;
    }

    void add(byte[] chunk, int n, int reservedForIt) {
      reserved += n;
      budget.release(reservedForIt - n);
      if (n > 0) {
        arrays.add(chunk);
        lastLength = n;
        length += n;
      }
    }

    /** The whole body in one array of its size: reserved as well before copying, or over budget. */
    BodyRead whole() {
      if (arrays.size() == 1 && arrays.get(0).length == length) {
        return new BodyRead(BodyRead.Status.READ, arrays.get(0), budget, reserved);
      }
      if (!budget.tryReserve(length)) {
        return partial(BodyRead.Status.OVER_BUDGET);
      }
      byte[] body = join();
      budget.release(reserved);
      return new BodyRead(BodyRead.Status.READ, body, budget, length);
    }

    /** What was read before reading stopped; its reservation ends with the chunks. */
    BodyRead partial(BodyRead.Status status) {
      byte[] prefix = join();
      releaseAll();
      return new BodyRead(status, prefix, budget, 0);
    }

    void releaseAll() {
      budget.release(reserved);
      reserved = 0;
    }

    private byte[] join() {
      byte[] out = new byte[(int) length];
      int at = 0;
      for (int i = 0; i < arrays.size(); i++) {
        int n = i == arrays.size() - 1 ? lastLength : arrays.get(i).length;
        System.arraycopy(arrays.get(i), 0, out, at, n);
        arrays.set(i, null); // let the chunk go while the copy grows
        at += n;
      }
      return out;
    }
  }
}
