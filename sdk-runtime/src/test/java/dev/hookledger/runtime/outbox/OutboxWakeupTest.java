package dev.hookledger.runtime.outbox;

import static dev.hookledger.runtime.outbox.OutboxFixture.awaitEffects;
import static dev.hookledger.runtime.outbox.OutboxFixture.builder;
import static dev.hookledger.runtime.outbox.OutboxFixture.number;
import static dev.hookledger.runtime.outbox.OutboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What the outbox costs a node whose handlers send nothing, and how its senders are woken: one
 * listening session per runtime for the inbox's channel and the outbox's, no sender thread before the
 * first effect, and an effect committed on a node without senders sent by another one at once, woken
 * through that one session, well before its poll.
 */
class OutboxWakeupTest {
  private static final URI NOWHERE = URI.create("http://127.0.0.1:9");
  private static final String LISTENING = "select count(*) from pg_stat_activity where datname = current_database()"
      + " and application_name like 'hookledger%listener'";
  private final TestDatabase.Database db = OutboxFixture.database();

  @Test
  void aRuntimeWithWorkersAndSendersListensOnOneSessionAndStartsNoSenderBeforeItsFirstEffect() {
    List<String> delivered = new CopyOnWriteArrayList<>();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), NOWHERE, new Mailer())
        .effectHandler("mail", Mail.class, (mail, d) -> delivered.add(mail.invoice())).build()) {
      runtime.start();
      Await.until("listening", Duration.ofSeconds(30), () -> number(db, LISTENING) >= 1);
      receive(runtime, "evt_ignored", "customer.created", "{}");
      Await.until("the event settled", Duration.ofSeconds(30),
          () -> number(db, "select count(*) from hookledger.event where status = 'ignored'") == 1);
      assertEquals(1, number(db, LISTENING), "listening sessions");
      assertEquals(List.of(), senders(), "sender threads before any effect");

      receive(runtime, "evt_paid");
      awaitEffects(db, 1, "done");
      assertEquals(4, senders().size(), "sender threads after the first effect: " + senders());
      assertEquals(1, number(db, LISTENING), "listening sessions");
    }
    assertEquals(List.of("evt_paid"), delivered);
  }

  @Test
  void anEffectCommittedOnANodeWithoutSendersIsSentByAnotherWellBeforeItsPoll() {
    List<String> delivered = new CopyOnWriteArrayList<>();
    try (WebhookRuntime sender = builder(db.jdbcUrl(), NOWHERE).inbox(i -> i.workers(0))
            .outbox(o -> o.pollInterval(Duration.ofMinutes(5)))
            .effectHandler("mail", Mail.class, (mail, d) -> delivered.add(mail.invoice())).build();
        WebhookRuntime enqueuer = builder(db.jdbcUrl(), NOWHERE, new Mailer()).outbox(o -> o.workers(0))
            .effectHandler("mail", Mail.class, (mail, d) -> delivered.add("enqueuer " + mail.invoice())).build()) {
      sender.start();
      Await.until("the sender listening", Duration.ofSeconds(30), () -> number(db, LISTENING) == 1);
      enqueuer.start(); // the sender's first poll ran at its start; the next is minutes away
      receive(enqueuer, "evt_elsewhere");
      awaitEffects(db, 1, "done");
    }
    assertEquals(List.of("evt_elsewhere"), delivered);
  }

  private static List<String> senders() {
    return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
        .filter(n -> n.startsWith("hookledger-hookledger-sender-")).sorted().toList();
  }

  public record Mail(String invoice) {}

  public static final class Mailer {
    @OnEvent("invoice.paid")
    public void paid(WebhookEvent event, EventContext ctx) {
      ctx.outbox().send("receipt-mail", new Mail(event.eventId()));
    }
  }
}
