package dev.hookledger.samples.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.samples.app.SampleState;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The inline design, written by hand: per event, one transaction that inserts the ledger row
 * ({@code ON CONFLICT DO NOTHING}) and, if it was new, applies the same effect as the sample's
 * handler ({@code Billing}, {@code Commits}, {@code Orders}) to tables of its own schema, then
 * commits. What hookledger's processing path is compared with, at the database alone
 * ({@link InlineLimit}) and behind a hand-written servlet ({@link HandWrittenEndpoint}). Shopify's
 * ordering guard is left out: every order in a plan is created once.
 */
final class InlineDesign {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a handler needs from an event: its entity and amount, by provider. */
  record Effect(String provider, String eventId, String key, long amount, String name, String total, String status) {}

  private final String schema;

  /** @param schema where its ledger and effect tables live, e.g. {@code bench_inline}: dropped and made anew */
  InlineDesign(String schema) {
    this.schema = schema;
  }

  void prepare(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("drop schema if exists " + schema + " cascade");
      s.execute("create schema " + schema);
      s.execute("create table " + schema + ".ledger (provider text not null, event_id text not null, body bytea not null,"
          + " received_at timestamptz not null default now(), primary key (provider, event_id))");
      s.execute("create table " + schema + ".balance (customer text primary key, amount_cents bigint not null)");
      s.execute("create table " + schema + ".repository_commits (repository text primary key, commits bigint not null)");
      s.execute("create table " + schema + ".shop_order (id bigint primary key, name text not null,"
          + " total_price numeric not null, financial_status text not null)");
    }
  }

  /** What the handler of {@code provider} reads from {@code body}, parsed as that handler would. */
  static Effect effect(String provider, String eventId, byte[] body) throws IOException {
    JsonNode json = JSON.readTree(body);
    return switch (provider) {
      case "stripe" -> {
        JsonNode invoice = json.path("data").path("object");
        yield new Effect(provider, eventId, invoice.path("customer").asText(), invoice.path("amount_paid").asLong(),
            null, null, null);
      }
      case "github" -> new Effect(provider, eventId, json.path("repository").path("full_name").asText(),
          json.path("commits").size(), null, null, null);
      default -> new Effect(provider, eventId, null, json.path("id").asLong(), json.path("name").asText(),
          json.path("total_price").asText(), json.path("financial_status").asText());
    };
  }

  /**
   * On {@code c}, in autocommit off: the ledger row and, if it is new, the effect; then commits.
   *
   * @return whether the event was new
   */
  boolean write(Connection c, Effect e, byte[] body) throws SQLException {
    try {
      boolean inserted = insert(c, e, body);
      if (inserted) {
        apply(c, e);
      }
      c.commit();
      return inserted;
    } catch (SQLException ex) {
      c.rollback();
      throw ex;
    }
  }

  /** On {@code c}, in the caller's transaction: the ledger row, unless it is there; whether it was new. */
  boolean insert(Connection c, Effect e, byte[] body) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("insert into " + schema
        + ".ledger (provider, event_id, body) values (?, ?, ?) on conflict do nothing")) {
      ps.setString(1, e.provider());
      ps.setString(2, e.eventId());
      ps.setBytes(3, body);
      return ps.executeUpdate() == 1;
    }
  }

  /** On {@code c}, in the caller's transaction: the sample handler's effect of {@code e}. */
  void apply(Connection c, Effect e) throws SQLException {
    switch (e.provider()) {
      case "stripe" -> update(c, "insert into " + schema + ".balance (customer, amount_cents) values (?, ?)"
          + " on conflict (customer) do update set amount_cents = balance.amount_cents + excluded.amount_cents", e.key(),
          e.amount());
      case "github" -> update(c, "insert into " + schema + ".repository_commits (repository, commits) values (?, ?)"
          + " on conflict (repository) do update set commits = repository_commits.commits + excluded.commits", e.key(),
          e.amount());
      default -> {
        try (PreparedStatement ps = c.prepareStatement("insert into " + schema
            + ".shop_order (id, name, total_price, financial_status) values (?, ?, ?::numeric, ?)"
            + " on conflict (id) do update set name = excluded.name, total_price = excluded.total_price,"
            + " financial_status = excluded.financial_status")) {
          ps.setLong(1, e.amount());
          ps.setString(2, e.name());
          ps.setString(3, e.total());
          ps.setString(4, e.status());
          ps.executeUpdate();
        }
      }
    }
  }

  /**
   * The effects applied so far in {@code schema}'s tables, in the sample application's terms, so
   * that a hand-written design's run is checked for exactly once as hookledger's is.
   */
  static SampleState state(Connection c, String schema) throws SQLException {
    SortedMap<String, Long> balances = new TreeMap<>();
    SortedMap<String, Long> commits = new TreeMap<>();
    SortedMap<String, SampleState.Order> orders = new TreeMap<>();
    try (Statement s = c.createStatement()) {
      try (ResultSet r = s.executeQuery("select customer, amount_cents from " + schema + ".balance")) {
        while (r.next()) {
          balances.put(r.getString(1), r.getLong(2));
        }
      }
      try (ResultSet r = s.executeQuery("select repository, commits from " + schema + ".repository_commits")) {
        while (r.next()) {
          commits.put(r.getString(1), r.getLong(2));
        }
      }
      try (ResultSet r = s.executeQuery("select id::text, total_price::text, financial_status from " + schema
          + ".shop_order")) {
        while (r.next()) {
          orders.put(r.getString(1), new SampleState.Order(r.getString(2), r.getString(3)));
        }
      }
    }
    if (!c.getAutoCommit()) {
      c.commit();
    }
    return new SampleState(balances, new TreeMap<>(), 0, commits, orders);
  }

  private static void update(Connection c, String sql, String key, long amount) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, key);
      ps.setLong(2, amount);
      ps.executeUpdate();
    }
  }
}
