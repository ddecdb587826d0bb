package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.MinuteRollUp.SMALLEST_STEP;
import static dev.hookledger.runtime.internal.ledger.MinuteRollUp.STEP;
import static dev.hookledger.runtime.internal.ledger.MinuteRollUp.nextSpan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The roll-up's step span: halved after a step that ran long, doubled back after quick ones, within its bounds. */
class RollUpStepSpanTest {
  @Test
  void aLongStepHalvesTheNextDownToTheSmallest() {
    assertEquals(Duration.ofMinutes(5), nextSpan(STEP, Duration.ofMillis(1_500)));
    assertEquals(SMALLEST_STEP, nextSpan(Duration.ofSeconds(15), Duration.ofSeconds(3)));
    assertEquals(SMALLEST_STEP, nextSpan(SMALLEST_STEP, Duration.ofSeconds(3)));
  }

  @Test
  void quickStepsDoubleItBackUpToTheLargest() {
    assertEquals(Duration.ofSeconds(20), nextSpan(SMALLEST_STEP, Duration.ofMillis(50)));
    assertEquals(STEP, nextSpan(Duration.ofMinutes(8), Duration.ofMillis(50)));
    assertEquals(STEP, nextSpan(STEP, Duration.ofMillis(5)));
  }

  @Test
  void aStepOfAboutTheTargetKeepsIt() {
    assertEquals(Duration.ofMinutes(2), nextSpan(Duration.ofMinutes(2), Duration.ofMillis(600)));
  }
}
