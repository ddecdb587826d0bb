package dev.hookledger.runtime.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.hookledger.runtime.spring.testing.SpringBootDeliveryContract;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * {@link SpringBootDeliveryContract} on Spring Boot 3.5 and the versions it manages, with the
 * actuator's health indicator of that generation.
 */
class SpringBootDeliveryTest extends SpringBootDeliveryContract {
  @Autowired
  Map<String, HealthIndicator> healthIndicators;

  @Test
  void healthIndicatorReportsTheRuntimesHealth() {
    HealthIndicator indicator = healthIndicators.get("hookledgerHealthIndicator");
    assertNotNull(indicator, "no hookledger health indicator: " + healthIndicators.keySet());

    Health health = indicator.health();

    assertEquals(Status.UP, health.getStatus());
    dev.hookledger.runtime.Health expected = runtime.health();
    assertEquals(expected.workers(), health.getDetails().get("workers"));
    assertEquals(true, health.getDetails().get("databaseReachable"));
    assertEquals(true, health.getDetails().get("running"));
    assertEquals(expected.deadEffects(), health.getDetails().get("deadEffects"));
    assertEquals(expected.openBreakers(), health.getDetails().get("openBreakers"));
  }
}
