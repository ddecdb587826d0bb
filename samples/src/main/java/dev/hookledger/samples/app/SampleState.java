package dev.hookledger.samples.app;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * A snapshot of the sample application's business state: what {@code GET /sample/state.json}
 * shows, and what the demo compares with the state it expects.
 *
 * <p>Immutable; maps are sorted by key so that two equal states print alike.
 *
 * @param balances balance in US cents per Stripe customer
 * @param subscriptions status and plan per Stripe subscription id
 * @param tickets how many tickets GitHub {@code issues.opened} events have opened
 * @param commits pushed commits per GitHub repository
 * @param orders total and financial status per Shopify order id
 */
public record SampleState(
    SortedMap<String, Long> balances,
    SortedMap<String, Subscription> subscriptions,
    long tickets,
    SortedMap<String, Long> commits,
    SortedMap<String, Order> orders) {

  /** A subscription's status and plan. */
  public record Subscription(String status, String plan) {}

  /** An order's total (a decimal string, as Shopify sends it) and financial status. */
  public record Order(String total, String status) {}

  public SampleState {
    balances = sorted(balances);
    subscriptions = sorted(subscriptions);
    commits = sorted(commits);
    orders = sorted(orders);
  }

  /** Reads the current state from the {@code sample} schema. */
  public static SampleState read(DSLContext db) {
    requireNonNull(db, "db");
    SortedMap<String, Long> balances = new TreeMap<>();
    for (Record r : db.fetch("SELECT customer, amount_cents FROM sample.balance")) {
      balances.put(r.get(0, String.class), r.get(1, Long.class));
    }
    SortedMap<String, Subscription> subscriptions = new TreeMap<>();
    for (Record r : db.fetch("SELECT id, status, plan FROM sample.subscription")) {
      subscriptions.put(r.get(0, String.class),
          new Subscription(r.get(1, String.class), r.get(2, String.class)));
    }
    long tickets = db.fetchOne("SELECT count(*) FROM sample.ticket").get(0, Long.class);
    SortedMap<String, Long> commits = new TreeMap<>();
    for (Record r : db.fetch("SELECT repository, commits FROM sample.repository_commits")) {
      commits.put(r.get(0, String.class), r.get(1, Long.class));
    }
    SortedMap<String, Order> orders = new TreeMap<>();
    for (Record r : db.fetch(
        "SELECT id::text, total_price::text, financial_status FROM sample.shop_order")) {
      orders.put(r.get(0, String.class), new Order(r.get(1, String.class), r.get(2, String.class)));
    }
    return new SampleState(balances, subscriptions, tickets, commits, orders);
  }

  /**
   * Reads a state from the JSON of {@code /sample/state.json}.
   *
   * @throws IllegalArgumentException if {@code json} is not such a document
   */
  public static SampleState fromJson(String json) {
    try {
      return StateServlet.JSON.readValue(json, SampleState.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("not a sample state: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * What differs between this state (expected) and {@code actual}, one line per difference in
   * the form {@code balances[cus_1]: expected 4200, was 8400}; empty when they are equal.
   */
  public List<String> differencesFrom(SampleState actual) {
    List<String> out = new ArrayList<>();
    diff("balances", balances, actual.balances, out);
    diff("subscriptions", subscriptions, actual.subscriptions, out);
    if (tickets != actual.tickets) {
      out.add("tickets: expected " + tickets + ", was " + actual.tickets);
    }
    diff("commits", commits, actual.commits, out);
    diff("orders", orders, actual.orders, out);
    return out;
  }

  private static <V> void diff(
      String name, Map<String, V> expected, Map<String, V> actual, List<String> out) {
    TreeMap<String, Object> keys = new TreeMap<>();
    expected.keySet().forEach(k -> keys.put(k, k));
    actual.keySet().forEach(k -> keys.put(k, k));
    for (String k : keys.keySet()) {
      V e = expected.get(k);
      V a = actual.get(k);
      if (!Objects.equals(e, a)) {
        out.add(name + "[" + k + "]: expected " + show(e) + ", was " + show(a));
      }
    }
  }

  private static String show(Object v) {
    return v == null ? "nothing" : v.toString();
  }

  private static <V> SortedMap<String, V> sorted(Map<String, V> map) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(requireNonNull(map)));
  }
}
