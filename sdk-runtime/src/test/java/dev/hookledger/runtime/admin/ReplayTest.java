package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.spi.ReplayReport;
import dev.hookledger.spi.ReplaySink;
import dev.hookledger.spi.ReplaySource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplayTest {
  private final LedgerFixture ledger = new LedgerFixture();
  private final InboxAdmin admin = ledger.admin();

  @Test
  void recordsNewEventsAsPendingReplaysAndSkipsThoseAlreadyReceived() {
    ledger.row("stripe", "evt_2").status("done").secretId("whsec-2025").settledAt(NOW).insert();
    FixedSource source = new FixedSource("stripe", List.of(
        event("evt_1", "invoice.paid"), event("evt_2", "invoice.paid"), event("evt_3", "charge.failed")));

    Instant before = ledger.databaseNow();
    ReplayReport report = admin.replay(source, NOW.minus(Duration.ofDays(2)), Optional.empty());

    assertEquals(new ReplayReport(3, 2, 1, 0, 1), report);
    EventDetail replayed = admin.show("stripe", "", "evt_1").orElseThrow();
    assertEquals(EventStatus.PENDING, replayed.summary().status());
    assertEquals(EventSource.REPLAY, replayed.summary().source());
    assertEquals("invoice.paid", replayed.summary().type());
    assertTrue(replayed.secretId().isEmpty(), "replayed events carry no secret id");
    assertEquals("{\"id\":\"evt_1\"}", replayed.body());
    ledger.assertDatabaseTimeSince(before, replayed.summary().availableAt()); // due at once, by the database's clock
    assertEquals("acct_1", replayed.headers().get("stripe-account"));
    assertTrue(replayed.headers().keySet().stream().noneMatch(h -> h.contains("signature")));
    // the event received earlier is untouched
    EventDetail received = admin.show("stripe", "", "evt_2").orElseThrow();
    assertEquals(EventStatus.DONE, received.summary().status());
    assertEquals(EventSource.DELIVERY, received.summary().source());
    assertEquals("whsec-2025", received.secretId().orElseThrow());
  }

  @Test
  void replayingTwiceRecordsNothingTheSecondTime() {
    FixedSource source = new FixedSource("stripe", List.of(event("evt_1", "invoice.paid")));
    admin.replay(source, NOW.minus(Duration.ofDays(1)), Optional.empty());

    ReplayReport again = admin.replay(source, NOW.minus(Duration.ofDays(1)), Optional.empty());

    assertEquals(new ReplayReport(1, 0, 1, 0, 1), again);
    assertEquals(1, ledger.count());
  }

  @Test
  void passesTheWindowAndTypeFilterToTheSource() {
    FixedSource source = new FixedSource("stripe", List.of(
        event("evt_1", "invoice.paid"), event("evt_2", "charge.failed")));
    Instant since = NOW.minus(Duration.ofHours(2));

    ReplayReport report = admin.replay(source, since, Optional.of("charge.failed"));

    assertEquals(since, source.since);
    assertEquals(1, report.recorded());
    assertEquals("charge.failed", admin.show("stripe", "", "evt_2").orElseThrow().summary().type());
  }

  @Test
  void aRedeliveringSourceAsksTheLedgerWhatItAlreadyHas() {
    ledger.row("github", "guid-1").status("done").settledAt(NOW).insert();
    List<String> redelivered = new java.util.ArrayList<>();
    ReplaySource redelivering = new ReplaySource() {
      @Override
      public String provider() {
        return "github";
      }

      @Override
      public ReplayReport replay(Instant since, Optional<String> type, ReplaySink sink) {
        for (String guid : List.of("guid-1", "guid-2")) {
          if (!sink.alreadyReceived("github", "", guid)) {
            redelivered.add(guid);
          }
        }
        return new ReplayReport(2, 0, 2 - redelivered.size(), redelivered.size(), 1);
      }
    };

    ReplayReport report = admin.replay(redelivering, NOW.minus(Duration.ofDays(1)), Optional.empty());

    assertEquals(List.of("guid-2"), redelivered);
    assertEquals(1, report.redelivered());
    assertEquals(1, report.alreadyReceived());
  }

  @Test
  void refusesAnEventOfAnotherProvider() {
    FixedSource source = new FixedSource("github", List.of(event("evt_1", "invoice.paid")));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> admin.replay(source, NOW, Optional.empty()));
    assertEquals("a replay source for github offered an event of provider stripe: stripe event evt_1 invoice.paid",
        e.getMessage());
    assertEquals(0, ledger.count());
  }

  static WebhookEvent event(String id, String type) {
    return WebhookEvent.builder().provider("stripe").eventId(id).type(type)
        .body(("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8))
        .header("Stripe-Account", "acct_1")
        .header("Stripe-Signature", "t=1,v1=deadbeef")
        .build();
  }

  /** A replay source over a fixed list, filtering by type as a provider API would. */
  static final class FixedSource implements ReplaySource {
    private final String provider;
    private final List<WebhookEvent> events;
    Instant since;

    FixedSource(String provider, List<WebhookEvent> events) {
      this.provider = provider;
      this.events = events;
    }

    @Override
    public String provider() {
      return provider;
    }

    @Override
    public ReplayReport replay(Instant since, Optional<String> typeFilter, ReplaySink sink) {
      this.since = since;
      int fetched = 0;
      for (WebhookEvent e : events) {
        if (typeFilter.isEmpty() || typeFilter.get().equals(e.type())) {
          fetched++;
          sink.offer(e);
        }
      }
      // deliberately claims nothing recorded: the admin reports what the ledger counted
      return new ReplayReport(fetched, 0, 0, 0, 1);
    }
  }
}
