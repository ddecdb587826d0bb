package dev.hookledger.runtime.admin;

/** Where a backfill is. */
public enum BackfillStatus {
  /** Waiting for, or being run by, a node that registers all of its handlers. */
  RUNNING,
  /** Every selected event was visited. */
  DONE,
  /** Stopped by an operator; what it applied stays applied. */
  CANCELLED
}
