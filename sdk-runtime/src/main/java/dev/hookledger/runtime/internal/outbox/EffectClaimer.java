package dev.hookledger.runtime.internal.outbox;

import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jooq.DSLContext;

/**
 * Claims due effects as leases, destination by destination, each claim one transaction committed
 * before its effects are sent, as the inbox claims events ({@code LeaseClaimer}): status
 * {@code sending}, the owner, {@code attempts + 1}, and {@code available_at = lease_until}, so that
 * an effect whose node died is found again by the same condition as a due one. Rows are taken
 * {@code FOR UPDATE SKIP LOCKED}, oldest due first.
 *
 * <p>What is shared across nodes is decided under the lock of the destination's
 * {@code destination_state} row, taken first by every claim of that destination (and by each
 * settle that changes it), so that two nodes never both see room: a paused destination or an open
 * breaker gives no effect (a due probe gives one); the concurrency is the destination's limit less
 * the effects it has in flight under a live lease; the rate is a token bucket in the row, refilled
 * at the rate up to the burst by the database's clock. An ordered effect is due only when no
 * waiting effect of its key has a smaller {@code seq}. All times are the database's.
 *
 * <p>On a ledger distributed by Citus ({@link CitusLedger}), where {@code effect} is distributed by
 * scope beside the events, Citus refuses {@code FOR UPDATE} in a query it cannot route to one shard
 * ("could not run distributed query with FOR UPDATE/SHARE commands"): the destination's due rows
 * are then taken scope by scope, as the inbox claims events, each a router query on the scope's
 * shard, the scopes read first without locks, the one that waited longest first. An ordering key
 * then holds within its scope: the head is looked for on the effect's own shard. Thread-safe.
 */
final class EffectClaimer {
  private final DSLContext dsl;
  private final EffectTable t;
  private final String dueDestinations;
  /** On Citus: {@link #dueDestinations} as one grouping of the due effects (no recursive query on a distributed table). */
  private final String dueDestinationsGrouped;
  private final String ensureState;
  private final String lockState;
  private final String inFlight;
  private final String dueRows;
  /** On Citus: the scopes with due effects of one destination, and {@link #dueRows} of one scope. */
  private final String dueScopes;
  private final String dueRowsOfScope;
  private final CitusLedger citus;
  private final String take;
  private final String bury;
  private final String takeTokens;
  private final String probing;

  /** @param citus says whether the ledger is distributed: then each claim takes its rows scope by scope */
  EffectClaimer(DSLContext dsl, String schema, CitusLedger citus) {
    this.dsl = dsl;
    this.citus = citus;
    this.t = new EffectTable(schema);
    this.dueDestinations = dueDestinationsSql(t.effect);
    // on the partial index of waiting rows: its cost follows the backlog, never history
    this.dueDestinationsGrouped = "select destination from " + t.effect + " where status in ('pending', 'sending')"
        + " and available_at <= now() group by destination order by min(available_at) limit ?";
    this.ensureState = "insert into " + t.state + " (destination) values (?) on conflict (destination) do nothing";
    this.lockState = "select breaker, paused, probe_at <= now() as probe_due, tokens,"
        + " extract(epoch from now() - tokens_at) as since from " + t.state + " where destination = ? for update";
    this.inFlight = "select count(*) as n from " + t.effect + " where destination = ? and status = 'sending'"
        + " and lease_until > now()";
    this.dueRows = dueRows(t, "", "");
    this.dueScopes = "select scope from " + t.effect + " where status in ('pending', 'sending')"
        + " and available_at <= now() and destination = ? group by scope order by min(available_at) limit ?";
    // the head's subquery names the scope as a value of its own: Citus routes the statement to one
    // shard only when each table's scope is bound; h.scope = e.scope it refuses ("could not run
    // distributed query with FOR UPDATE/SHARE commands")
    this.dueRowsOfScope = dueRows(t, " and scope = ?", "h.scope = ? and ");
    this.take = "update " + t.effect + " set status = 'sending', attempts = attempts + 1, lease_owner = ?,"
        + " lease_until = now() + ? * interval '1 millisecond', available_at = now() + ? * interval '1 millisecond'"
        + " where scope = ? and idempotency_key = any(?::uuid[])"
        + " returning scope, idempotency_key, provider, event_id, handler, name, kind, destination, method, url,"
        + " headers::text as headers, body, content_type, payload_type, attempts";
    this.bury = "update " + t.effect + " set status = 'dead', last_error = ?, lease_owner = null, lease_until = null,"
        + " settled_at = now() where scope = ? and idempotency_key = ?";
    this.takeTokens = "update " + t.state + " set tokens = ?, tokens_at = greatest(tokens_at, now()),"
        + " updated_at = now() where destination = ?";
    this.probing = "update " + t.state + " set breaker = 'probing', updated_at = now() where destination = ?";
  }

  /** The due rows' select, with {@code scope} after the destination's test and {@code headScope} in the head's. */
  private static String dueRows(EffectTable t, String scope, String headScope) {
    return "select scope, idempotency_key, attempts, status, lease_owner, lease_until from " + t.effect + " e"
        + " where status in ('pending', 'sending') and available_at <= now() and destination = ?" + scope
        + " and (ordering_key is null or not exists (select 1 from " + t.effect + " h"
        + " where " + headScope + "h.destination = e.destination and h.ordering_key = e.ordering_key"
        + " and h.status in ('pending', 'sending') and h.seq < e.seq))"
        + " order by available_at limit ? for update skip locked";
  }

  /**
   * The statement that finds the destinations with due effects (see {@link #dueDestinations}), on
   * the index of waiting effects by {@code (destination, status, available_at)} (schema V19): it
   * walks the distinct destinations of waiting effects, one index probe each (a recursive query, as
   * a skip scan), and reads each one's first {@code available_at} per status, one probe each. So
   * its cost follows the number of destinations with waiting effects, never how many wait: after a
   * bulk retry of a million dead effects, the grouping it replaces read the million on every poll.
   */
  static String dueDestinationsSql(String effect) {
    String waiting = "status in ('pending', 'sending')";
    return "with recursive d(destination) as ("
        + "(select destination from " + effect + " where " + waiting + " order by destination limit 1)"
        + " union all select (select e.destination from " + effect + " e where e." + waiting
        + " and e.destination > d.destination order by e.destination limit 1) from d where d.destination is not null)"
        + " select destination from (select d.destination, least("
        + firstDue(effect, "pending") + ", " + firstDue(effect, "sending") + ") as due"
        + " from d where d.destination is not null) f where due <= now() order by due limit ?";
  }

  /** A destination's first {@code available_at} among its effects of one waiting status: one index probe. */
  private static String firstDue(String effect, String status) {
    return "(select w.available_at from " + effect + " w where w.destination = d.destination and w.status = '" + status
        + "' order by w.available_at limit 1)";
  }

  /** The destinations with due effects, the one that waited longest first, at most {@code limit}. */
  List<String> dueDestinations(int limit) {
    // known before the transaction begins: its first reading is a transaction of its own
    String sql = citus.distributed() ? dueDestinationsGrouped : dueDestinations;
    return LedgerDsl.inOwnTransaction(dsl, tx -> EffectTable.rows(tx, sql, limit).stream()
        .map(r -> (String) r.get("destination")).toList());
  }

  /**
   * What one claim of a destination took.
   *
   * @param effects the leases taken
   * @param buried effects set dead instead: their attempts ran out under leases that ran out
   * @param nextToken when the destination's rate allows the next effect, if the bucket is empty; else null
   */
  record Claim(List<ClaimedEffect> effects, List<String> buried, Duration nextToken) {}

  /** Claims up to {@code room} due effects of {@code d} that its shared limits allow now. */
  Claim claim(Destination d, String owner, int room) {
    // a request ends within its timeouts; the margin covers the settle after it on a loaded node
    Duration lease = d.timeout().plus(d.connectTimeout()).plusSeconds(5);
    // known before the claim's transaction begins: its first reading is a transaction of its own, which
    // inside this one would be nested (a savepoint, which a JPA transaction manager refuses)
    boolean distributed = citus.distributed();
    return LedgerDsl.inOwnTransaction(dsl, tx -> {
      List<Map<String, Object>> state = EffectTable.rows(tx, lockState, d.name());
      if (state.isEmpty()) {
        EffectTable.update(tx, ensureState, d.name());
        state = EffectTable.rows(tx, lockState, d.name());
      }
      Map<String, Object> s = state.get(0);
      if (Boolean.TRUE.equals(s.get("paused"))) {
        return new Claim(List.of(), List.of(), null);
      }
      long busy = ((Number) EffectTable.rows(tx, inFlight, d.name()).get(0).get("n")).longValue();
      String breaker = (String) s.get("breaker");
      boolean probe = false;
      int allowed;
      if ("open".equals(breaker)) {
        probe = Boolean.TRUE.equals(s.get("probe_due"));
        allowed = probe ? 1 : 0;
      } else if ("probing".equals(breaker)) {
        allowed = busy == 0 ? 1 : 0; // the probe's node died: let another probe through
      } else {
        allowed = (int) Math.max(0, d.concurrency() - busy);
      }
      allowed = Math.min(allowed, room);
      Double tokens = null;
      if (d.ratePerSecond() > 0) {
        Number since = (Number) s.get("since");
        Number left = (Number) s.get("tokens");
        tokens = left == null || since == null ? d.burst()
            : Math.min(d.burst(), left.doubleValue() + Math.max(0, since.doubleValue()) * d.ratePerSecond());
        allowed = (int) Math.min(allowed, Math.floor(tokens));
      }
      if (allowed <= 0) {
        return new Claim(List.of(), List.of(), tokens != null && tokens < 1 ? untilToken(tokens, d) : null);
      }
      List<String> buried = new ArrayList<>();
      // the keys to take, by scope, in the order they fell due: one update per scope takes them all
      Map<String, List<UUID>> due = new LinkedHashMap<>();
      for (Map<String, Object> r : dueRows(tx, d, allowed, distributed)) {
        int attempts = ((Number) r.get("attempts")).intValue();
        if (attempts >= d.maxAttempts()) {
          String reason = "sending".equals(r.get("status"))
              ? "attempt " + attempts + " by " + r.get("lease_owner") + " was abandoned: its lease ran out at "
                  + r.get("lease_until") + "; no attempt left (" + attempts + " of " + d.maxAttempts() + ")"
              : "no attempt left (" + attempts + " of " + d.maxAttempts() + ")";
          EffectTable.update(tx, bury, reason, r.get("scope"), r.get("idempotency_key"));
          buried.add(r.get("idempotency_key") + ": " + reason);
          continue;
        }
        due.computeIfAbsent((String) r.get("scope"), k -> new ArrayList<>()).add((UUID) r.get("idempotency_key"));
      }
      List<ClaimedEffect> taken = new ArrayList<>();
      due.forEach((scope, keys) -> taken.addAll(take(tx, owner, lease, scope, keys)));
      if (tokens != null) {
        tokens -= taken.size();
        EffectTable.update(tx, takeTokens, tokens, d.name());
      }
      if (probe && !taken.isEmpty()) {
        EffectTable.update(tx, probing, d.name());
      }
      return new Claim(taken, buried, tokens != null && tokens < 1 ? untilToken(tokens, d) : null);
    });
  }

  /**
   * The due rows of {@code d}, at most {@code limit}, locked, skipping those another transaction holds;
   * on Citus scope by scope, in this transaction, which the destination's row lock keeps the only
   * claim of {@code d}.
   */
  private List<Map<String, Object>> dueRows(DSLContext tx, Destination d, int limit, boolean distributed) {
    if (!distributed) {
      return EffectTable.rows(tx, dueRows, d.name(), limit);
    }
    List<Map<String, Object>> due = new ArrayList<>();
    for (Map<String, Object> s : EffectTable.rows(tx, dueScopes, d.name(), limit)) {
      due.addAll(EffectTable.rows(tx, dueRowsOfScope, d.name(), s.get("scope"), s.get("scope"),
          limit - due.size()));
      if (due.size() >= limit) {
        break;
      }
    }
    return due;
  }

  /** Leases {@code keys} of {@code scope} in one statement (a router query on Citus), in the order given. */
  private List<ClaimedEffect> take(DSLContext tx, String owner, Duration lease, String scope, List<UUID> keys) {
    Map<UUID, ClaimedEffect> taken = new HashMap<>();
    for (Map<String, Object> e : EffectTable.rows(tx, take, owner, lease.toMillis(), lease.toMillis(), scope,
        keys.stream().map(UUID::toString).toArray(String[]::new))) {
      ClaimedEffect c = effect(e, owner, lease);
      taken.put(c.key(), c);
    }
    return keys.stream().map(taken::get).filter(Objects::nonNull).toList();
  }

  private static Duration untilToken(double tokens, Destination d) {
    return Duration.ofMillis(Math.max(1, (long) Math.ceil((1 - tokens) / d.ratePerSecond() * 1000)));
  }

  private static ClaimedEffect effect(Map<String, Object> e, String owner, Duration lease) {
    return new ClaimedEffect((String) e.get("scope"), (UUID) e.get("idempotency_key"), (String) e.get("provider"),
        (String) e.get("event_id"), (String) e.get("handler"), (String) e.get("name"), (String) e.get("kind"),
        (String) e.get("destination"), (String) e.get("method"), (String) e.get("url"), (String) e.get("headers"),
        (byte[]) e.get("body"), (String) e.get("content_type"), (String) e.get("payload_type"),
        ((Number) e.get("attempts")).intValue(), owner, lease);
  }
}
