package dev.hookledger.runtime;

import java.util.Locale;

/** How an event reached the ledger. */
public enum EventSource {
  /** Received signed, over HTTP (or through {@code WebhookRuntime.receive}); waits for processing. */
  DELIVERY,
  /** Fetched from the provider's API by a replay; waits for processing like a delivery. */
  REPLAY,
  /**
   * Received signed in {@link ProcessingMode#SHADOW} mode and passed on to the application's
   * existing endpoint, which handled it: recorded settled ({@link EventStatus#IGNORED}), so that
   * switching to enforcing never runs it again.
   */
  SHADOW;

  /**
   * The source as people and tools read it: its lower-case name ({@code delivery}, {@code replay}),
   * the same on the admin page, in the CLI, in the admin JSON and in the ledger's {@code source} column.
   */
  public String displayText() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether the provider sent it to us (so that a second copy is a duplicate delivery, and counted). */
  public boolean isDelivery() {
    return this != REPLAY;
  }
}
