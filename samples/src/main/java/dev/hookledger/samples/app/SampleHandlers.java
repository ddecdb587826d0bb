package dev.hookledger.samples.app;

import java.util.List;

/** The sample application's handler instances, as registered with the runtime. */
public final class SampleHandlers {
  private SampleHandlers() {}

  /** One fresh instance of each sample handler class; the classes hold no state. */
  public static List<Object> all() {
    return List.of(new Billing(), new Subscriptions(), new Tickets(), new Commits(), new Orders());
  }

  /** As {@link #all()}, with {@link Billing} sending a receipt for each paid invoice to {@code receiptPath}. */
  public static List<Object> withReceipts(String receiptPath) {
    return List.of(new Billing(receiptPath), new Subscriptions(), new Tickets(), new Commits(), new Orders());
  }
}
