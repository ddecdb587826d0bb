package dev.hookledger.runtime.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.hookledger.runtime.Health;
import dev.hookledger.runtime.spring.internal.HealthDetails;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The actuator indicator's status and details, as both starters build them from {@link Health}. */
class HealthDetailsTest {

  @Test
  void stuckEventsOrADeadWorkerAreDegradedWithTheReasonNotUp() {
    Health stuck = new Health(true, true, 2, 1, true, true, 0, 5, 0, Duration.ofMinutes(7), 3, "");

    assertEquals("DEGRADED", HealthDetails.statusCode(stuck));
    Map<String, Object> details = HealthDetails.of(stuck);
    assertEquals(3L, details.get("stuck"));
    assertEquals("3 events stuck: due and taken by no worker; 1 of 2 worker threads running", details.get("reason"));
  }

  @Test
  void deadEffectsAndAnOpenBreakerAreDegradedWithTheirCounts() {
    Health effects = new Health(true, true, 2, 2, true, true, 0, 0, 0, Duration.ZERO, 0, "", 4, 1);

    assertEquals("DEGRADED", HealthDetails.statusCode(effects));
    Map<String, Object> details = HealthDetails.of(effects);
    assertEquals(4L, details.get("deadEffects"));
    assertEquals(1L, details.get("openBreakers"));
    assertEquals("4 effects dead, waiting for an operator; the breaker of 1 destination is open: its effects wait",
        details.get("reason"));
  }

  @Test
  void anUnreachableDatabaseIsDownAndAHealthyNodeIsUpWithoutAReason() {
    Health down = new Health(true, false, 2, 2, true, true, 0, 0, 0, Duration.ZERO, 0, "timed out after 2000 ms");
    Health up = new Health(true, true, 2, 2, true, true, 0, 0, 0, Duration.ZERO, 0, "");

    assertEquals("DOWN", HealthDetails.statusCode(down));
    assertEquals("the database is unreachable: timed out after 2000 ms", HealthDetails.of(down).get("reason"));
    assertEquals("UP", HealthDetails.statusCode(up));
    assertFalse(HealthDetails.of(up).containsKey("reason"));
  }
}
