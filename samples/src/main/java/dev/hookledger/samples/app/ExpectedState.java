package dev.hookledger.samples.app;

import java.util.Map;
import java.util.TreeMap;

/**
 * The business state a set of events should leave behind if every effect happens exactly once:
 * each distinct event applied once, and for the entities whose handlers skip stale events, the
 * newest version winning whatever the arrival order. The demo and the benchmark build it from the
 * same event descriptions they sign and send, and compare it with {@link SampleState#read}; it is
 * never written down by hand. Not thread-safe.
 */
public final class ExpectedState {
  private final Map<String, Long> balances = new TreeMap<>();
  private final Map<String, Versioned<SampleState.Subscription>> subscriptions = new TreeMap<>();
  private long tickets;
  private final Map<String, Long> commits = new TreeMap<>();
  private final Map<String, Versioned<SampleState.Order>> orders = new TreeMap<>();

  private record Versioned<T>(long version, T value) {}

  /** A distinct {@code invoice.paid} event in US cents. */
  public void invoicePaid(String customer, long amountCents) {
    balances.merge(customer, amountCents, Long::sum);
  }

  /** A distinct version of a subscription; the newest version wins. */
  public void subscription(String id, long version, String status, String plan) {
    newest(subscriptions, id, version, new SampleState.Subscription(status, plan));
  }

  /** A distinct {@code issues.opened} event. */
  public void issueOpened() {
    tickets++;
  }

  /** A distinct {@code push} event. */
  public void push(String repository, int commitCount) {
    commits.merge(repository, (long) commitCount, Long::sum);
  }

  /** A distinct version of an order; the newest version wins. */
  public void order(long id, long version, String total, String status) {
    newest(orders, Long.toString(id), version, new SampleState.Order(total, status));
  }

  private static <T> void newest(Map<String, Versioned<T>> map, String key, long version, T value) {
    map.merge(key, new Versioned<>(version, value), (old, now) -> now.version() > old.version() ? now : old);
  }

  /** The state these events should have produced. */
  public SampleState toState() {
    Map<String, SampleState.Subscription> subs = new TreeMap<>();
    subscriptions.forEach((k, v) -> subs.put(k, v.value()));
    Map<String, SampleState.Order> ords = new TreeMap<>();
    orders.forEach((k, v) -> ords.put(k, v.value()));
    return new SampleState(new TreeMap<>(balances), new TreeMap<>(subs), tickets,
        new TreeMap<>(commits), new TreeMap<>(ords));
  }
}
