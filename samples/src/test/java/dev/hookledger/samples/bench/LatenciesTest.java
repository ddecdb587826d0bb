package dev.hookledger.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatenciesTest {

  @Test
  void percentilesUseTheNearestRank() {
    // 1..100 ms in shuffled order
    long[] nanos = LongStream.rangeClosed(1, 100).map(i -> ((i * 37) % 100 + 1) * 1_000_000).toArray();
    Latencies l = new Latencies(nanos);
    assertEquals(Duration.ofMillis(50), l.percentile(50));
    assertEquals(Duration.ofMillis(99), l.percentile(99));
    assertEquals(Duration.ofMillis(100), l.percentile(100));
    assertEquals(Duration.ofMillis(100), l.max());
    assertEquals(100, l.count());
  }

  @Test
  void aSingleSampleIsEveryPercentile() {
    Latencies l = new Latencies(new long[] {7_000});
    assertEquals(Duration.ofNanos(7_000), l.percentile(1));
    assertEquals(Duration.ofNanos(7_000), l.percentile(99));
  }

  @Test
  void rejectsAPercentileOutsideTheRange() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new Latencies(new long[] {1}).percentile(0));
    assertEquals("percentile must be in (0, 100], but was 0.0", e.getMessage());
  }

  @Test
  void showsMillisecondsWithOneDecimal() {
    assertEquals("3.1 ms", Latencies.millis(Duration.ofNanos(3_140_000)));
  }
}
