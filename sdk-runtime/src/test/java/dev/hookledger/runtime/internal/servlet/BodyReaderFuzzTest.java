package dev.hookledger.runtime.internal.servlet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Fuzzes the filter's body reading: any declared length, limit, budget, body and way of arriving
 * (short reads, a stream that breaks) ends in the whole body, a refusal or an {@link IOException},
 * never another exception; a body read is exactly the bytes sent; and every byte reserved is given
 * back. A plain build runs it over {@code BodyReaderFuzzTestInputs/}; see the README to fuzz.
 */
class BodyReaderFuzzTest {

  @FuzzTest(maxDuration = "3m")
  void anyBodyIsReadWhollyOrRefusedAndItsReservationGivenBack(FuzzedDataProvider data) {
    int limit = data.consumeInt(1, 300_000);
    long capacity = data.consumeLong(1, 400_000);
    int maxRead = data.consumeInt(1, 70_000);
    boolean breaks = data.consumeBoolean();
    int declaredChoice = data.consumeInt(-2, 2);
    byte[] body = data.consumeRemainingAsBytes();
    // -1: chunked; 0: the true length; 1: longer than sent (cut short); 2: a fuzzed length beyond the limit
    long declared = switch (declaredChoice) {
      case -2, -1 -> -1;
      case 0 -> body.length;
      case 1 -> body.length + 1L;
      default -> limit + 1L + body.length;
    };
    BodyBudget budget = BodyBudget.of(capacity);
    InputStream in = new ArrivingStream(body, maxRead, breaks);
    BodyRead read;
    try {
      read = BodyReader.read(in, declared, limit, budget, ReadDeadline.NONE);
    } catch (IOException e) {
      assertEquals(0, budget.reserved(), "a failed read keeps nothing reserved");
      return;
    }
    try (read) {
      assertTrue(budget.reserved() <= capacity, "never over the budget");
      assertTrue(read.status() == BodyRead.Status.READ || read.reserved() <= budget.perBody(),
          "a body stopped early never held more than its share");
      switch (read.status()) {
        case READ -> {
          assertArrayEquals(body, read.bytes());
          assertTrue(body.length <= limit, "a body over the limit was read as whole");
          assertEquals(body.length, budget.reserved(), "the body holds exactly its size");
        }
        case TOO_LARGE -> assertTrue(declared > limit || body.length > limit, "refused as too large within the limit");
        case OVER_BUDGET -> assertTrue(Arrays.equals(read.bytes(), 0, read.bytes().length, body, 0,
            Math.min(body.length, read.bytes().length)), "what was read is a prefix of the body");
        case TIMED_OUT -> throw new AssertionError("no deadline, yet timed out");
      }
    }
    assertEquals(0, budget.reserved(), "every reservation is given back");
  }

  /** A body arriving in reads of at most {@code maxRead} bytes, failing at its end if {@code breaks}. */
  private static final class ArrivingStream extends InputStream {
    private final byte[] body;
    private final int maxRead;
    private final boolean breaks;
    private int at;

    ArrivingStream(byte[] body, int maxRead, boolean breaks) {
      this.body = body;
      this.maxRead = maxRead;
      this.breaks = breaks;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (at == body.length) {
        if (breaks) {
          throw new IOException("connection reset");
        }
        return -1;
      }
      int n = Math.min(Math.min(len, maxRead), body.length - at);
      System.arraycopy(body, at, b, off, n);
      at += n;
      return n;
    }
  }
}
