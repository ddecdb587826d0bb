package dev.hookledger.runtime.admin;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.internal.ledger.LedgerMigration;
import dev.hookledger.runtime.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSONB;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * A fresh database with the ledger applied, and rows written straight into it, as the receive
 * path and workers would leave them. Independent of the admin's own table definitions, so a wrong
 * column mapping there cannot hide behind the same mistake here.
 */
public final class LedgerFixture {
  public static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
  public static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  public final TestDatabase.Database database = TestDatabase.create();
  // pooled: the slow classes write and read thousands of rows a statement at a time, and a session per
  // statement cost them more than the statements did
  public final DSLContext sql = DSL.using(database.pooled(), SQLDialect.POSTGRES);
  public final String schema;

  public LedgerFixture() {
    this("hookledger");
  }

  public LedgerFixture(String schema) {
    this.schema = schema;
    admin().migrate();
  }

  /** A ledger as a build that knew no version after {@code version} left it: the scripts up to it applied. */
  public LedgerFixture(String schema, int version) {
    this.schema = schema;
    for (LedgerMigration m : LedgerMigration.ALL) {
      if (m.version() > version) {
        break;
      }
      if (m.inTransaction()) {
        sql.transaction(cfg -> cfg.dsl().execute(m.sql(schema)));
      } else {
        m.statements(schema).forEach(sql::execute);
      }
    }
  }

  /** The database's {@code now()}: the clock of due times, which the admin's {@link #CLOCK} does not move. */
  public Instant databaseNow() {
    return sql.select(DSL.field("now()", SQLDataType.INSTANT)).fetchSingle().value1();
  }

  /** Asserts that {@code t} is no earlier than {@code from} and no later than the database's now. */
  public void assertDatabaseTimeSince(Instant from, Instant t) {
    Instant to = databaseNow();
    assertTrue(!t.isBefore(from) && !t.isAfter(to),
        t + " is not between " + from + " and " + to + " by the database's clock");
  }

  public InboxAdmin admin() {
    // reads here assert what they return, not how fast: a loaded 2-core CI machine can take longer than
    // the 2 s default deadline, which HealthDeadlineTest proves on its own
    return InboxAdmin.builder(database.pooled()).schema(schema).clock(CLOCK).readTimeout(Duration.ofSeconds(30))
        .build();
  }

  public Row row(String provider, String eventId) {
    return new Row(provider, eventId);
  }

  /** The status column of one event, or null if the row is gone. */
  public String statusOf(String provider, String scope, String eventId) {
    return sql.select(field(name("status"), String.class)).from(table(name(schema, "event")))
        .where(field(name("provider")).eq(provider), field(name("scope")).eq(scope),
            field(name("event_id")).eq(eventId))
        .fetchOne(0, String.class);
  }

  public int count() {
    return sql.fetchCount(table(name(schema, "event")));
  }

  /** One row to insert; defaults: scope '', type {@code t.created}, pending, received at NOW. */
  public final class Row {
    private final Map<String, Object> values = new LinkedHashMap<>();

    private Row(String provider, String eventId) {
      values.put("provider", provider);
      values.put("scope", "");
      values.put("event_id", eventId);
      values.put("type", "t.created");
      values.put("status", "pending");
      values.put("body", ("{\"id\":\"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8));
      values.put("received_at", NOW);
      values.put("available_at", NOW);
    }

    public Row scope(String scope) { values.put("scope", scope); return this; }
    public Row type(String type) { values.put("type", type); return this; }
    public Row status(String status) { values.put("status", status); return this; }
    public Row attempts(int attempts) { values.put("attempts", attempts); return this; }
    public Row lastError(String error) { values.put("last_error", error); return this; }
    public Row duplicates(int duplicates) { values.put("duplicates", duplicates); return this; }
    public Row receivedAt(Instant at) { values.put("received_at", at); values.put("available_at", at); return this; }
    public Row availableAt(Instant at) { values.put("available_at", at); return this; }
    public Row settledAt(Instant at) { values.put("settled_at", at); return this; }
    public Row secretId(String id) { values.put("secret_id", id); return this; }
    public Row body(String body) { values.put("body", body.getBytes(StandardCharsets.UTF_8)); return this; }
    public Row lease(String owner, Instant until) { values.put("lease_owner", owner); values.put("lease_until", until); return this; }

    public Row headers(Map<String, String> headers) {
      String json = headers.entrySet().stream()
          .map(e -> quote(e.getKey()) + ":" + quote(e.getValue()))
          .collect(Collectors.joining(",", "{", "}"));
      values.put("headers", JSONB.valueOf(json));
      return this;
    }

    public void insert() {
      var step = sql.insertInto(table(name(schema, "event"))).set(field(name("provider")), values.get("provider"));
      for (Map.Entry<String, Object> e : values.entrySet()) {
        // typed by the Java value, so that byte[] binds as bytea and Instant as timestamptz
        @SuppressWarnings("unchecked")
        Field<Object> column = (Field<Object>) field(name(e.getKey()), DSL.val(e.getValue()).getDataType());
        step = step.set(column, e.getValue());
      }
      step.execute();
    }

    private static String quote(String s) {
      return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
  }
}
