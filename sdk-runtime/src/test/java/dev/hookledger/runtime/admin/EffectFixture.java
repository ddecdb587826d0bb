package dev.hookledger.runtime.admin;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Effect rows, attempts and destination states written straight into a {@link LedgerFixture}'s
 * database, as the outbox's writer and senders would leave them: independent of the admin's own
 * column definitions, so that a wrong mapping there cannot hide behind the same mistake here.
 */
public final class EffectFixture {
  private final LedgerFixture ledger;

  public EffectFixture(LedgerFixture ledger) {
    this.ledger = ledger;
  }

  /** An HTTP effect of {@code provider}'s event {@code eventId} to {@code destination}; pending, created at NOW. */
  public Effect effect(String provider, String eventId, String destination) {
    return new Effect(provider, eventId, destination);
  }

  /** Records attempt {@code n} of an effect. */
  public void attempt(Effect e, int n, Integer statusCode, String outcome, String excerpt, String error) {
    insert("effect_attempt", Map.of("scope", e.scope(), "idempotency_key", e.key, "attempt", n,
        "node", "node-a", "started_at", LedgerFixture.NOW.plusSeconds(n), "ended_at", LedgerFixture.NOW.plusSeconds(n),
        "duration_ms", 12L, "outcome", outcome), statusCode == null ? Map.of() : Map.of("status_code", statusCode),
        excerpt == null ? Map.of() : Map.of("response_excerpt", excerpt), error == null ? Map.of() : Map.of("error", error));
  }

  /** A destination's shared state. */
  public void state(String destination, String breaker, int failures, boolean paused) {
    insert("destination_state", Map.of("destination", destination, "breaker", breaker,
        "consecutive_failures", failures, "paused", paused),
        "closed".equals(breaker) ? Map.of() : Map.of("opened_at", LedgerFixture.NOW));
  }

  /** The status column of one effect, or null if the row is gone. */
  public String statusOf(Effect e) {
    return ledger.sql.select(field(name("status"), String.class)).from(table(name(ledger.schema, "effect")))
        .where(field(name("idempotency_key")).eq(e.key)).fetchOne(0, String.class);
  }

  public int attempts(Effect e) {
    return ledger.sql.fetchCount(table(name(ledger.schema, "effect_attempt")), field(name("idempotency_key")).eq(e.key));
  }

  @SafeVarargs
  private void insert(String tableName, Map<String, Object>... parts) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Map<String, Object> p : parts) {
      values.putAll(p);
    }
    var step = ledger.sql.insertInto(table(name(ledger.schema, tableName)));
    var set = (org.jooq.InsertSetMoreStep<?>) null;
    for (Map.Entry<String, Object> e : values.entrySet()) {
      @SuppressWarnings("unchecked")
      Field<Object> column = (Field<Object>) field(name(e.getKey()), DSL.val(e.getValue()).getDataType());
      set = set == null ? step.set(column, e.getValue()) : set.set(column, e.getValue());
    }
    set.execute();
  }

  /** One effect to insert. */
  public final class Effect {
    public final UUID key = UUID.randomUUID();
    private final Map<String, Object> values = new LinkedHashMap<>();

    private Effect(String provider, String eventId, String destination) {
      values.put("scope", "");
      values.put("idempotency_key", key);
      values.put("provider", provider);
      values.put("event_id", eventId);
      values.put("handler", "Billing.paid");
      values.put("name", "1");
      values.put("kind", "http");
      values.put("destination", destination);
      values.put("method", "POST");
      values.put("url", "/v1/receipts");
      values.put("status", "pending");
      values.put("created_at", LedgerFixture.NOW);
    }

    public Effect scope(String scope) { values.put("scope", scope); return this; }
    public Effect name(String name) { values.put("name", name); return this; }
    public Effect status(String status) { values.put("status", status); return this; }
    public Effect attempts(int n) { values.put("attempts", n); return this; }
    public Effect lastError(String error) { values.put("last_error", error); return this; }
    public Effect lastStatusCode(int code) { values.put("last_status_code", code); return this; }
    public Effect availableAt(Instant at) { values.put("available_at", at); return this; }
    public Effect createdAt(Instant at) { values.put("created_at", at); return this; }

    public String scope() {
      return (String) values.get("scope");
    }

    public Effect insert() {
      EffectFixture.this.insert("effect", values);
      return this;
    }
  }
}
