package dev.hookledger.runtime.admin;

import java.time.Instant;
import java.util.List;

/**
 * The provider's list of events for a window against the ledger, as {@code hookledger reconcile}
 * shows it. Nothing was written to find it. Immutable.
 *
 * @param provider the provider id
 * @param since the start of the window
 * @param until its end (exclusive)
 * @param listed events the provider listed in the window
 * @param ledger events the ledger has of the provider (and the scopes it listed) in the window
 * @param missing events the provider listed that the ledger does not have at all
 * @param unlisted events the ledger has in the window that the provider did not list
 * @param differing events both have whose status differs: the provider shows a failed or pending
 *     delivery that the ledger accepted, or the ledger holds as dead one the provider delivered
 */
public record ReconcileReport(String provider, Instant since, Instant until, int listed, int ledger,
    List<Entry> missing, List<Entry> unlisted, List<Entry> differing) {

  public ReconcileReport {
    missing = List.copyOf(missing);
    unlisted = List.copyOf(unlisted);
    differing = List.copyOf(differing);
  }

  /** Whether the ledger and the provider agree on the window. */
  public boolean agrees() {
    return missing.isEmpty() && unlisted.isEmpty() && differing.isEmpty();
  }

  /**
   * One event of a difference.
   *
   * @param providerDelivery what the provider says ({@code delivered}, {@code failed}, {@code pending}); null if it did not list it
   * @param providerDetail the provider's words ({@code HTTP 502}); null if it did not list it
   * @param ledgerStatus the ledger's status ({@code done}, {@code dead}, ...); null if the ledger lacks it
   */
  public record Entry(String scope, String eventId, String type, String providerDelivery, String providerDetail,
      String ledgerStatus) {}
}
