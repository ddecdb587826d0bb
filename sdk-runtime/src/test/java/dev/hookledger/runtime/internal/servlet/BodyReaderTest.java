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
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(body), body.length, LIMIT, budget)) {
      assertEquals(BodyRead.Status.READ, read.status());
      assertArrayEquals(body, read.bytes());
      assertEquals(5_000, budget.reserved());
    }
    assertEquals(0, budget.reserved());
  }

  @Test
  void declaredBodyTheBudgetCannotHoldIsNotRead() throws IOException {
    BodyBudget budget = BodyBudget.of(1_000);
    InputStream in = new ByteArrayInputStream(bytes(1_001));
    try (BodyRead read = BodyReader.read(in, 1_001, LIMIT, budget)) {
      assertEquals(BodyRead.Status.OVER_BUDGET, read.status());
      assertEquals(0, read.bytes().length);
    }
    assertEquals(1_001, in.available(), "not a byte read");
    assertEquals(0, budget.reserved());
  }

  @Test
  void declaredBodyOverTheLimitIsNotReadNorReserved() throws IOException {
    BodyBudget budget = BodyBudget.of(10_000);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(bytes(200)), 200, 100, budget)) {
      assertEquals(BodyRead.Status.TOO_LARGE, read.status());
    }
    assertEquals(0, budget.reserved());
  }

  @Test
  void declaredBodyThatEndsEarlyFailsAndGivesItsReservationBack() {
    BodyBudget budget = BodyBudget.of(10_000);
    IOException e = assertThrows(IOException.class,
        () -> BodyReader.read(new ByteArrayInputStream(bytes(10)), 500, LIMIT, budget));
    assertEquals("body ended after 10 of 500 bytes", e.getMessage());
    assertEquals(0, budget.reserved());
  }

  @Test
  void chunkedBodyOfManyChunksIsJoinedExactlyAndHoldsOnlyItsSize() throws IOException {
    BodyBudget budget = BodyBudget.of(1 << 20);
    byte[] body = bytes(200_000);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(body), -1, LIMIT, budget)) {
      assertEquals(BodyRead.Status.READ, read.status());
      assertArrayEquals(body, read.bytes());
      assertEquals(200_000, budget.reserved());
    }
    assertEquals(0, budget.reserved());
  }

  @Test
  void chunkedBodyStopsOnePastTheLimitAndKeepsWhatWasRead() throws IOException {
    BodyBudget budget = BodyBudget.of(1 << 20);
    byte[] body = bytes(300_000);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(body), -1, 100_000, budget)) {
      assertEquals(BodyRead.Status.TOO_LARGE, read.status());
      assertArrayEquals(Arrays.copyOf(body, 100_001), read.bytes());
    }
    assertEquals(0, budget.reserved());
  }

  @Test
  void chunkedBodyStopsWhenTheBudgetIsSpent() throws IOException {
    BodyBudget budget = BodyBudget.of(100_000);
    byte[] body = bytes(300_000);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(body), -1, LIMIT, budget)) {
      assertEquals(BodyRead.Status.OVER_BUDGET, read.status());
      assertArrayEquals(Arrays.copyOf(body, 100_000), read.bytes(), "read on in smaller pieces up to the budget");
    }
    assertEquals(0, budget.reserved());
  }

  @Test
  void chunkedBodyWhoseCopyTheBudgetCannotHoldIsOverBudget() throws IOException {
    // 100,000 bytes in two chunks fit, but not a second 100,000 for the joined copy
    BodyBudget budget = BodyBudget.of(190_000);
    try (BodyRead read = BodyReader.read(new ByteArrayInputStream(bytes(100_000)), -1, LIMIT, budget)) {
      assertEquals(BodyRead.Status.OVER_BUDGET, read.status());
    }
    assertEquals(0, budget.reserved());
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
    assertThrows(IOException.class, () -> BodyReader.read(failing, -1, LIMIT, budget));
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

  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return b;
  }
}
