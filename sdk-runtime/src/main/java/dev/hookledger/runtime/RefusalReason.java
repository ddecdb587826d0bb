package dev.hookledger.runtime;

import dev.hookledger.RejectionReason;

/**
 * Why the webhook door refused a delivery: the adapter's {@link RejectionReason}s, plus the refusals
 * the door makes before an adapter is asked (an unknown provider, a spent body budget, a body that
 * did not arrive in time). Nothing of a refused delivery is stored in the ledger but its count, per
 * node, provider and reason (see {@code InboxAdmin.refusedCounts()}).
 */
public enum RefusalReason {
  /** See {@link RejectionReason#SIGNATURE_MISSING}. */
  SIGNATURE_MISSING(RejectionReason.SIGNATURE_MISSING),
  /** See {@link RejectionReason#SIGNATURE_MALFORMED}. */
  SIGNATURE_MALFORMED(RejectionReason.SIGNATURE_MALFORMED),
  /** See {@link RejectionReason#SIGNATURE_MISMATCH}: a wrong secret, or a secret rotated on one side only. */
  SIGNATURE_MISMATCH(RejectionReason.SIGNATURE_MISMATCH),
  /** See {@link RejectionReason#TIMESTAMP_OUT_OF_TOLERANCE}: a stale (or future) signed timestamp. */
  TIMESTAMP_OUT_OF_TOLERANCE(RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE),
  /** See {@link RejectionReason#NO_SECRET_CONFIGURED}. */
  NO_SECRET_CONFIGURED(RejectionReason.NO_SECRET_CONFIGURED),
  /** See {@link RejectionReason#MALFORMED}; also a body that could not be read. */
  MALFORMED(RejectionReason.MALFORMED),
  /** See {@link RejectionReason#TOO_LARGE}. */
  TOO_LARGE(RejectionReason.TOO_LARGE),
  /** The path names no registered provider. */
  UNKNOWN_PROVIDER(404),
  /** The bytes of bodies held at once reached the runtime's budget: busy, try again. */
  OVER_BUDGET(503),
  /** The body did not arrive within the body read timeout. */
  READ_TIMEOUT(408);

  private final int httpStatus;

  RefusalReason(int httpStatus) {
    this.httpStatus = httpStatus;
  }

  // the adapter's reasons answer as the adapter's enum says: one owner of each status
  RefusalReason(RejectionReason same) {
    this(same.httpStatus());
  }

  /** The HTTP status the door answers with for this reason. */
  public int httpStatus() {
    return httpStatus;
  }

  /** The same reason as the adapter's {@code reason}; never null. */
  public static RefusalReason of(RejectionReason reason) {
    return valueOf(reason.name());
  }
}
