package dev.hookledger.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.samples.app.SampleState;
import java.time.Clock;
import org.junit.jupiter.api.Test;

class LoadPlanTest {

  @Test
  void spreadsInvoicesAndPushesOverTheEntitiesAsked() {
    SampleState state = LoadPlan.of(new LoadPlan.Spec(3000, 0, 1, 256), Clock.systemUTC()).expected().toState();
    assertEquals(256, state.balances().size());
    assertEquals(256, state.commits().size());
    assertEquals(1000, state.orders().size());
  }

  @Test
  void oneEntityIsOneHotRowPerHandler() {
    SampleState state = LoadPlan.of(new LoadPlan.Spec(30, 0, 1, 1), Clock.systemUTC()).expected().toState();
    assertEquals(1, state.balances().size());
    assertEquals(1, state.commits().size());
  }

  @Test
  void refusesNoEntities() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LoadPlan.of(new LoadPlan.Spec(30, 0, 1, 0), Clock.systemUTC()));
    assertEquals("entities must be >= 1, but was 0", e.getMessage());
  }
}
