package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The backoff schedule, its defaults, its jitter and the validation of each setting. */
class RetryPolicyTest {
  static final SplittableRandom UNUSED = new SplittableRandom(0);

  @Test
  void defaultsSuitWebhooks() {
    RetryPolicy p = RetryPolicy.defaults();
    assertEquals(Duration.ofSeconds(10), p.firstDelay());
    assertEquals(2.0, p.factor());
    assertEquals(Duration.ofHours(1), p.maxDelay());
    assertEquals(12, p.maxAttempts());
    assertEquals(0.2, p.jitter());
    assertEquals("RetryPolicy[firstDelay=PT10S, factor=2.0, maxDelay=PT1H, maxAttempts=12, jitter=0.2]", p.toString());
  }

  @Test
  void delaysDoubleFromTheFirstUpToTheCap() {
    RetryPolicy p = RetryPolicy.builder().jitter(0).build();
    List<Long> seconds = IntStream.rangeClosed(1, 11).mapToObj(n -> p.delayAfter(n, UNUSED).toSeconds()).toList();
    assertEquals(List.of(10L, 20L, 40L, 80L, 160L, 320L, 640L, 1280L, 2560L, 3600L, 3600L), seconds);
    assertEquals(12310, seconds.stream().mapToLong(Long::longValue).sum(), "about 3 h 25 min, as documented");
    assertEquals(false, p.isLast(11));
    assertEquals(true, p.isLast(12));
  }

  @Test
  void factorOneGivesAFixedDelayAndAHugeAttemptNumberStaysAtTheCap() {
    RetryPolicy fixed = RetryPolicy.builder().firstDelay(Duration.ofSeconds(5)).factor(1).jitter(0).build();
    assertEquals(Duration.ofSeconds(5), fixed.delayAfter(7, UNUSED));
    assertEquals(Duration.ofHours(1), RetryPolicy.builder().jitter(0).build().delayAfter(5_000, UNUSED));
  }

  @Test
  void jitterSpreadsEachDelayWithinItsBoundsAndASeedRepeatsIt() {
    RetryPolicy p = RetryPolicy.builder().jitter(0.25).build();
    List<Duration> first = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < 200; i++) {
      Duration d = p.delayAfter(3, random);
      assertTrue(d.toMillis() >= 30_000 && d.toMillis() <= 50_000, "40 s ± 25 %: " + d);
      first.add(d);
    }
    assertNotEquals(1, first.stream().distinct().count(), "spread, not one value");
    SplittableRandom again = new SplittableRandom(42);
    assertEquals(first, IntStream.range(0, 200).mapToObj(i -> p.delayAfter(3, again)).toList());
  }

  @Test
  void eachSettingNamesItsBadValue() {
    assertMessage("maxAttempts must be >= 1, but was 0", () -> RetryPolicy.builder().maxAttempts(0));
    assertMessage("firstDelay must be >= 1 ms, but was PT0S", () -> RetryPolicy.builder().firstDelay(Duration.ZERO));
    assertMessage("maxDelay must be >= 1 ms, but was PT-1S", () -> RetryPolicy.builder().maxDelay(Duration.ofSeconds(-1)));
    assertMessage("factor must be >= 1 and finite, but was 0.5", () -> RetryPolicy.builder().factor(0.5));
    assertMessage("factor must be >= 1 and finite, but was NaN", () -> RetryPolicy.builder().factor(Double.NaN));
    assertMessage("jitter must be between 0 and 1, but was 1.5", () -> RetryPolicy.builder().jitter(1.5));
    assertMessage("maxDelay (PT5S) must not be shorter than firstDelay (PT10S)",
        () -> RetryPolicy.builder().maxDelay(Duration.ofSeconds(5)).build());
    assertMessage("attempt must be >= 1, but was 0", () -> RetryPolicy.defaults().delayAfter(0, UNUSED));
  }

  @Test
  void runtimeBuilderNamesBadWorkerSettings() {
    assertMessage("lease must be >= 1 s, but was PT0.5S", () -> WebhookRuntime.builder()
        .inbox(i -> i.lease(Duration.ofMillis(500))));
    assertMessage("pollInterval must be >= 10 ms, but was PT0.001S",
        () -> WebhookRuntime.builder().inbox(i -> i.pollInterval(Duration.ofMillis(1))));
    assertMessage("batchSize must be between 1 and 1000, but was 0", () -> WebhookRuntime.builder()
        .inbox(i -> i.batchSize(0)));
    assertMessage("shutdownTimeout must not be negative, but was PT-1S",
        () -> WebhookRuntime.builder().inbox(i -> i.shutdownTimeout(Duration.ofSeconds(-1))));
    assertEquals("retryPolicy", assertThrows(NullPointerException.class,
        () -> WebhookRuntime.builder().inbox(i -> i.retryPolicy(null))).getMessage());
  }

  private static void assertMessage(String message, Executable action) {
    assertEquals(message, assertThrows(IllegalArgumentException.class, action).getMessage());
  }
}
