package dev.hookledger.runtime.admin;

/**
 * The count-bound confirmation every bulk retry shares (of events and of effects): the selection is
 * read and locked in the retry's transaction and changed only if it holds exactly as many rows as
 * the operator was shown and confirmed, so that a confirmation never covers more, or other, rows than
 * it said; and no selection is larger than {@link InboxAdmin#MAX_BULK_RETRY}, so that a retry is one
 * bounded statement in one short transaction.
 */
final class ConfirmedCount {
  private ConfirmedCount() {}

  /** How many rows to select at most: one more than the bound, to refuse a larger selection without counting it all. */
  static int selectLimit() {
    return InboxAdmin.MAX_BULK_RETRY + 1;
  }

  /**
   * @param selected how many rows a selection's read returned (at most {@link #selectLimit()})
   * @param what the selection, as people read it ({@code dead effects of destination receipts})
   * @param narrowBy what narrows it ({@code provider, type or cause})
   * @throws OperationRefusedException if there are more than the bound
   */
  static void requireBounded(int selected, Object what, String narrowBy) {
    if (selected > InboxAdmin.MAX_BULK_RETRY) {
      throw new OperationRefusedException("more than " + InboxAdmin.MAX_BULK_RETRY + " " + what + ": nothing was"
          + " retried; narrow the selection by " + narrowBy);
    }
  }

  /**
   * @throws OperationRefusedException if {@code actual} is not {@code confirmed}, naming both; the
   *     caller's transaction then rolls back whatever it changed
   */
  static void require(long actual, long confirmed, Object what) {
    if (actual != confirmed) {
      throw new OperationRefusedException("there are " + actual + " " + what + " now, not the " + confirmed
          + " confirmed: nothing was retried; look again and confirm " + actual);
    }
  }
}
