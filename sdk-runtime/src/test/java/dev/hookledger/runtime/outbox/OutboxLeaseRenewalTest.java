package dev.hookledger.runtime.outbox;

import static dev.hookledger.runtime.outbox.OutboxFixture.attempts;
import static dev.hookledger.runtime.outbox.OutboxFixture.awaitEffects;
import static dev.hookledger.runtime.outbox.OutboxFixture.builder;
import static dev.hookledger.runtime.outbox.OutboxFixture.effects;
import static dev.hookledger.runtime.outbox.OutboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.EffectDelivery;
import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.net.URI;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * An effect's lease is renewed while its send runs, fenced by the owner and attempt that claimed it:
 * an {@code EffectHandler} slower than its lease is not taken over by another node and run twice at
 * once, and a send whose lease was taken over anyway neither renews it nor settles it. The lease is
 * the destination's timeouts plus 5 s: with both at 1 ms, about 5 s, renewed every third of it.
 * Each handler outlives the lease by the database's clock, not by a sleep of its own.
 */
class OutboxLeaseRenewalTest {
  private static final URI NOWHERE = URI.create("http://127.0.0.1:9");
  private final TestDatabase.Database db = OutboxFixture.database();
  private final DSLContext sql = DSL.using(db.dataSource(), SQLDialect.POSTGRES);

  @Test
  void aTypedEffectSlowerThanItsLeaseIsDeliveredOnceThoughAnotherNodeSendsToo() {
    List<String> delivered = new CopyOnWriteArrayList<>();
    try (WebhookRuntime first = builder(db.jdbcUrl(), NOWHERE, new Mailer()).destination(quick())
            .effectHandler("mail", Mail.class, (mail, d) -> {
              delivered.add(d.idempotencyKey());
              outliveTheLease(d); // meanwhile the other node polls every 100 ms
            }).build();
        WebhookRuntime second = builder(db.jdbcUrl(), NOWHERE).inbox(i -> i.workers(0)).destination(quick())
            .effectHandler("mail", Mail.class, (mail, d) -> delivered.add(d.idempotencyKey())).build()) {
      second.start();
      first.start();
      receive(first, "evt_slow");
      awaitEffects(db, 1, "done");
    }
    assertEquals(1, delivered.size(), "delivered " + delivered);
    Map<String, Object> effect = effects(db).get(0);
    assertEquals(List.of(1, "done"), List.of(effect.get("attempts"), effect.get("status")));
    assertEquals(1, attempts(db).size());
  }

  @Test
  void aSendWhoseLeaseWasTakenOverNeitherRenewsNorSettlesIt() {
    AtomicReference<OffsetDateTime> taken = new AtomicReference<>();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), NOWHERE, new Mailer()).destination(quick())
        .effectHandler("mail", Mail.class, (mail, d) -> {
          // as another node's claim after the lease ran out: its owner, the next attempt, its own lease
          taken.set(sql.fetchOne("update hookledger.effect set lease_owner = 'another-node', attempts = attempts + 1,"
              + " lease_until = now() + interval '1 hour', available_at = now() + interval '1 hour'"
              + " where idempotency_key = ? returning lease_until", UUID.fromString(d.idempotencyKey()))
              .get(0, OffsetDateTime.class));
          outliveTheLease(d); // every renewal meanwhile is refused by the fence
        }).build()) {
      runtime.start();
      receive(runtime, "evt_lost");
      Await.until("the effect taken over", Duration.ofSeconds(30), () -> taken.get() != null);
    } // close waits for the send, and its settle, to end
    Map<String, Object> effect = effects(db).get(0);
    assertEquals(List.of("sending", "another-node", 2, taken.get().toInstant()),
        List.of(effect.get("status"), effect.get("lease_owner"), effect.get("attempts"),
            ((OffsetDateTime) effect.get("lease_until")).toInstant()));
    assertTrue(attempts(db).isEmpty(), "the lost attempt recorded: " + attempts(db));
  }

  /** A destination whose effects' lease is about 5 s. */
  private static Destination quick() {
    return Destination.named("mail").timeout(Duration.ofMillis(1)).connectTimeout(Duration.ofMillis(1));
  }

  /** Returns once the lease the effect was claimed with has run out by the database's clock, and 2 s more. */
  private void outliveTheLease(EffectDelivery d) {
    // claimed before the handler was called: its lease ends before this
    OffsetDateTime claimedUntil = sql.fetchOne("select now() + interval '5 seconds'").get(0, OffsetDateTime.class);
    Await.until("the first lease run out", Duration.ofSeconds(60),
        () -> sql.fetchOne("select now() > ?::timestamptz + interval '2 seconds'", claimedUntil).get(0, Boolean.class));
  }

  public record Mail(String invoice) {}

  public static final class Mailer {
    @OnEvent("invoice.paid")
    public void paid(WebhookEvent event, EventContext ctx) {
      ctx.outbox().send("receipt-mail", new Mail(event.eventId()));
    }
  }
}
