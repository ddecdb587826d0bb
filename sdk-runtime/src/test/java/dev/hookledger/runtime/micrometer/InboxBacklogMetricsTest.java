package dev.hookledger.runtime.micrometer;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.testing.GarbageCollection;
import dev.hookledger.runtime.testing.SteppingClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class InboxBacklogMetricsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SteppingClock clock = new SteppingClock(Instant.parse("2025-03-01T00:00:00Z"));

  @Test
  void gaugesReportTheBacklogAndReuseOneReadForMaxAge() {
    LedgerFixture ledger = new LedgerFixture();
    ledger.row("stripe", "evt_1").status("pending").receivedAt(NOW.minus(Duration.ofSeconds(42))).insert();
    ledger.row("stripe", "evt_2").status("dead").insert();
    new InboxBacklogMetrics(ledger.admin(), Duration.ofSeconds(10), clock).bindTo(registry);

    assertEquals(1.0, gauge("hookledger.inbox.waiting"));
    assertEquals(1.0, gauge("hookledger.inbox.dead"));
    assertEquals(42.0, registry.get("hookledger.inbox.oldest.waiting").timeGauge().value(TimeUnit.SECONDS));

    ledger.row("stripe", "evt_3").status("dead").insert();
    clock.advance(Duration.ofSeconds(9));
    assertEquals(1.0, gauge("hookledger.inbox.dead"), "one read serves scrapes within maxAge");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(2.0, gauge("hookledger.inbox.dead"));
  }

  @Test
  void gaugesReadTheBacklogAfterAGarbageCollectionWhenNothingElseHoldsTheBinder() {
    LedgerFixture ledger = new LedgerFixture();
    ledger.row("stripe", "evt_1").status("pending").receivedAt(NOW.minus(Duration.ofSeconds(42))).insert();
    ledger.row("stripe", "evt_2").status("dead").insert();
    // as the README shows it, and as the starters bind it: nothing but the registry keeps the binder
    new InboxBacklogMetrics(ledger.admin(), Duration.ZERO, clock).bindTo(registry);

    GarbageCollection.run();

    assertEquals(1.0, gauge("hookledger.inbox.waiting"));
    assertEquals(1.0, gauge("hookledger.inbox.dead"));
    assertEquals(42.0, registry.get("hookledger.inbox.oldest.waiting").timeGauge().value(TimeUnit.SECONDS));
  }

  @Test
  void anUnreachableDatabaseReadsAsNaN() {
    PGSimpleDataSource nowhere = new PGSimpleDataSource();
    nowhere.setUrl("jdbc:postgresql://127.0.0.1:1/none?user=x");
    new InboxBacklogMetrics(InboxAdmin.builder(nowhere).build(), Duration.ZERO, clock).bindTo(registry);

    assertTrue(Double.isNaN(gauge("hookledger.inbox.waiting")));
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }
}
