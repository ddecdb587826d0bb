package dev.hookledger.runtime.internal.servlet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** How a body is read against a limit and a budget, and that every reservation is accounted for. */
class BodyReaderTest {
  private static final int LIMIT = 1 << 20;

  @Test
  void declaredBodyIsReadIntoOneArrayOfItsSizeAndHoldsItsReservation() throws IOException {
    BodyBudget budget = BodyBudget.of(10_000);
    byte[] body = bytes(5_000);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(body), body.length, LIMIT, budget, ReadDeadline.NONE)) {
      assertEquals(BodyRead.Status.READ, read.status());
      assertArrayEquals(body, read.bytes());
      assertEquals(5_000, budget.reserved());
    }
    assertEquals(0, budget.reserved());
  }

  @Test
  void declaredBodyOverItsShareOfTheBudgetIsNotRead() throws IOException {
    BodyBudget budget = BodyBudget.of(1_000);
    InputStream in = new ByteArrayInputStream(bytes(501));
    try (BodyRead read = BodyReader.read(in, 501, LIMIT, budget, ReadDeadline.NONE)) {
      assertEquals(BodyRead.Status.OVER_BUDGET, read.status());
      assertEquals(0, read.bytes().length);
    }
    assertEquals(501, in.available(), "not a byte read");
    assertEquals(0, budget.reserved());
  }

  @Test
  void declaredBodyReservesOnlyTheBytesThatArrived() throws IOException {
    // a large Content-Length and a trickle: the reservation follows the trickle, not the declaration
    BodyBudget budget = BodyBudget.of(1 << 20);
    long[] heldWhenStalled = new long[1];
    InputStream trickle = new InputStream() {
      private int sent;

      @Override
      public int read() {
        throw new UnsupportedOperationException();
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (sent == 10) {
          heldWhenStalled[0] = budget.reserved();
          throw new IOException("the client went away");
        }
        b[off] = 'x';
        sent++;
        return 1;
      }
    };
    assertThrows(IOException.class, () -> BodyReader.read(trickle, 400_000, LIMIT, budget, ReadDeadline.NONE));
    assertEquals(10, heldWhenStalled[0], "10 bytes sent, 10 held, whatever was declared");
    assertEquals(0, budget.reserved());
  }

  @Test
  void declaredBodyStopsWhenTheBudgetIsSpentAndHoldsItsPrefixUntilClosed() throws IOException {
    BodyBudget budget = BodyBudget.of(1_000);
    assertTrue(budget.tryReserve(800));
    byte[] body = bytes(400);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(body), 400, LIMIT, budget, ReadDeadline.NONE)) {
      assertEquals(BodyRead.Status.OVER_BUDGET, read.status());
      assertArrayEquals(Arrays.copyOf(body, 200), read.bytes(), "the prefix the budget could hold");
      assertEquals(1_000, budget.reserved(), "the prefix stays accounted while it is held");
    }
    assertEquals(800, budget.reserved());
  }

  @Test
  void declaredBodyOverTheLimitIsNotReadNorReserved() throws IOException {
    BodyBudget budget = BodyBudget.of(10_000);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(bytes(200)), 200, 100, budget, ReadDeadline.NONE)) {
      assertEquals(BodyRead.Status.TOO_LARGE, read.status());
    }
    assertEquals(0, budget.reserved());
  }

  @Test
  void declaredBodyThatEndsEarlyFailsAndGivesItsReservationBack() {
    BodyBudget budget = BodyBudget.of(10_000);
    IOException e = assertThrows(IOException.class,
        () -> BodyReader.read(new ByteArrayInputStream(bytes(10)), 500, LIMIT, budget, ReadDeadline.NONE));
    assertEquals("body ended after 10 of 500 bytes", e.getMessage());
    assertEquals(0, budget.reserved());
  }

  @Test
  void chunkedBodyOfManyChunksIsJoinedExactlyAndHoldsOnlyItsSize() throws IOException {
    BodyBudget budget = BodyBudget.of(1 << 20);
    byte[] body = bytes(200_000);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(body), -1, LIMIT, budget, ReadDeadline.NONE)) {
      assertEquals(BodyRead.Status.READ, read.status());
      assertArrayEquals(body, read.bytes());
      assertEquals(200_000, budget.reserved());
    }
    assertEquals(0, budget.reserved());
  }

  @Test
  void chunkedBodyStopsOnePastTheLimitAndKeepsWhatWasReadAccounted() throws IOException {
    BodyBudget budget = BodyBudget.of(1 << 20);
    byte[] body = bytes(300_000);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(body), -1, 100_000, budget, ReadDeadline.NONE)) {
      assertEquals(BodyRead.Status.TOO_LARGE, read.status());
      assertArrayEquals(Arrays.copyOf(body, 100_001), read.bytes());
      assertEquals(100_001, budget.reserved(), "the over-limit prefix is held in the budget, not beside it");
    }
    assertEquals(0, budget.reserved());
  }

  @Test
  void chunkedBodyStopsAtItsShareOfTheBudget() throws IOException {
    BodyBudget budget = BodyBudget.of(100_000);
    byte[] body = bytes(300_000);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(body), -1, LIMIT, budget, ReadDeadline.NONE)) {
      assertEquals(BodyRead.Status.OVER_BUDGET, read.status());
      assertEquals(50_000, read.bytes().length, "one body holds at most half the budget");
      assertArrayEquals(Arrays.copyOf(body, read.bytes().length), read.bytes());
    }
    assertEquals(0, budget.reserved());
  }

  @Test
  void chunkedBodyWhoseCopyTheBudgetCannotHoldIsOverBudget() throws IOException {
    // 80,000 bytes in two chunks fit beside 60,000 held elsewhere, but not a second 80,000 for the joined copy
    BodyBudget budget = BodyBudget.of(200_000);
    assertTrue(budget.tryReserve(60_000));
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(bytes(80_000)), -1, LIMIT, budget, ReadDeadline.NONE)) {
      assertEquals(BodyRead.Status.OVER_BUDGET, read.status());
    }
    assertEquals(60_000, budget.reserved());
  }

  @Test
  void chunkedBodyWhoseStreamFailsGivesEveryChunkBack() {
    BodyBudget budget = BodyBudget.of(1 << 20);
    InputStream failing = new InputStream() {
      private int left = 100_000;

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0];
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (left == 0) {
          throw new IOException("connection reset");
        }
        int n = Math.min(len, left);
        Arrays.fill(b, off, off + n, (byte) 'x');
        left -= n;
        return n;
      }
    };
    assertThrows(IOException.class, () -> BodyReader.read(failing, -1, LIMIT, budget, ReadDeadline.NONE));
    assertEquals(0, budget.reserved());
  }

  @Test
  void budgetNeverGoesBelowZeroNorAboveItsCapacity() {
    BodyBudget budget = BodyBudget.of(10);
    assertTrue(budget.tryReserve(8));
    assertFalse(budget.tryReserve(3));
    assertEquals(2, budget.reserveUpTo(5));
    assertEquals(0, budget.reserveUpTo(5));
    budget.release(10);
    assertEquals("released 1 bytes more than were reserved (-1)",
        assertThrows(IllegalStateException.class, () -> budget.release(1)).getMessage());
    assertEquals("maxInFlightBodyBytes must be >= 1, but was 0",
        assertThrows(IllegalArgumentException.class, () -> BodyBudget.of(0)).getMessage());
  }

  @Test
  void bodyThatStallsPastItsDeadlineIsTimedOutAndGivesItsBytesBack() throws IOException {
    BodyBudget budget = BodyBudget.of(1 << 20);
    InputStream stalls = new InputStream() {
      private boolean sent;

      @Override
      public int read() {
        throw new UnsupportedOperationException();
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (!sent) {
          sent = true;
          b[off] = '{';
          return 1;
        }
        try {
          Thread.sleep(60_000); // as a blocking container read waits for bytes that never come
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException("interrupted");
        }
        return -1;
      }
    };
    try (BodyRead read = BodyReader.read(stalls, 100, LIMIT, budget, ReadDeadline.of(java.time.Duration.ofMillis(200)))) {
      assertEquals(BodyRead.Status.TIMED_OUT, read.status());
      assertArrayEquals(new byte[] {'{'}, read.bytes());
    }
    assertEquals(0, budget.reserved());
    assertFalse(Thread.currentThread().isInterrupted(), "the deadline's interrupt does not outlive the read");
  }

  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return b;
  }
}
