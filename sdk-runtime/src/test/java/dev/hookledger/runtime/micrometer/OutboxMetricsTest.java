package dev.hookledger.runtime.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.admin.EffectFixture;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.testing.SteppingClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class OutboxMetricsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SteppingClock clock = new SteppingClock(LedgerFixture.NOW);

  @Test
  void gaugesReportTheOutboxAndKeepReadingAfterTheBinderIsCollected() {
    LedgerFixture ledger = new LedgerFixture();
    EffectFixture effects = new EffectFixture(ledger);
    effects.effect("stripe", "evt_1", "receipts").createdAt(LedgerFixture.NOW.minusSeconds(42)).insert();
    effects.effect("stripe", "evt_2", "receipts").status("dead").attempts(16).insert();
    effects.effect("stripe", "evt_3", "chat").status("done").attempts(1).insert();
    effects.state("receipts", "open", 10, false);
    effects.state("chat", "closed", 0, true);
    // bound and dropped, as an application's configuration does: nothing else references it
    new OutboxMetrics(ledger.admin().outbox(), Duration.ofSeconds(10), clock).bindTo(registry);
    System.gc();

    assertEquals(1.0, gauge("hookledger.effects.waiting"));
    assertEquals(1.0, gauge("hookledger.effects.dead"));
    assertEquals(42.0, registry.get("hookledger.effects.oldest.waiting").timeGauge().value(TimeUnit.SECONDS));
    assertEquals(1.0, gauge("hookledger.effects.breakers.open"));
    assertEquals(1.0, gauge("hookledger.effects.destinations.paused"));

    effects.effect("stripe", "evt_4", "chat").status("dead").attempts(16).insert();
    clock.advance(Duration.ofSeconds(9));
    assertEquals(1.0, gauge("hookledger.effects.dead"), "one read serves scrapes within maxAge");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(2.0, gauge("hookledger.effects.dead"));
  }

  @Test
  void anUnreachableDatabaseReadsAsNaN() {
    PGSimpleDataSource nowhere = new PGSimpleDataSource();
    nowhere.setUrl("jdbc:postgresql://127.0.0.1:1/none?user=x");
    new OutboxMetrics(InboxAdmin.builder(nowhere).build().outbox(), Duration.ZERO, clock).bindTo(registry);

    assertTrue(Double.isNaN(gauge("hookledger.effects.dead")));
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }
}
