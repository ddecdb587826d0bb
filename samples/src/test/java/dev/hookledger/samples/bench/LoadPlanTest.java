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
  void oneProviderOnlySpreadsItsEventsOverEveryEntity() {
    LoadPlan plan = LoadPlan.of(new LoadPlan.Spec(3000, 0.2, 1, 256, "github"), Clock.systemUTC());
    for (int i = 0; i < plan.deliveries(); i++) {
      assertEquals("github", plan.event(i).provider());
      assertEquals("push", plan.event(i).kind());
    }
    SampleState state = plan.expected().toState();
    assertEquals(256, state.commits().size(), "every repository pushed to");
    assertEquals(0, state.balances().size());
    assertEquals(0, state.orders().size());
    // 2,400 distinct pushes of 1 to 5 commits each, round robin over the repositories
    assertEquals(2400 * 3, state.commits().values().stream().mapToLong(Long::longValue).sum());
  }

  @Test
  void refusesAProviderItCannotSend() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LoadPlan.of(new LoadPlan.Spec(30, 0, 1, 1, "paypal"), Clock.systemUTC()));
    assertEquals("provider must be one of [stripe, github, shopify], but was paypal", e.getMessage());
  }

  @Test
  void refusesNoEntities() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LoadPlan.of(new LoadPlan.Spec(30, 0, 1, 0), Clock.systemUTC()));
    assertEquals("entities must be >= 1, but was 0", e.getMessage());
  }
}
