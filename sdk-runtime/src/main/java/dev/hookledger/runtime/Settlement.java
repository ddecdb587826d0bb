package dev.hookledger.runtime;

/**
 * How an event's processing transaction settled it, as {@link WebhookListener#processed} reports:
 * the three ways an event is finished without an operator.
 */
public enum Settlement {
  /** Its handlers ran and committed. */
  DONE(EventStatus.DONE),
  /** No handler matched its type. */
  IGNORED(EventStatus.IGNORED),
  /** It was older than the version of its entity already applied; its handlers were skipped. */
  STALE(EventStatus.STALE);

  private final EventStatus status;

  Settlement(EventStatus status) {
    this.status = status;
  }

  /** The status the event's ledger row now has. */
  public EventStatus status() {
    return status;
  }

  /**
   * The settlement a settled status stands for.
   *
   * @throws IllegalArgumentException if {@code status} is not {@link EventStatus#isSettled() settled}
   */
  public static Settlement of(EventStatus status) {
    // a switch, not a loop over values(): that copies the array, once per processed event
    return switch (status) {
      case DONE -> DONE;
      case IGNORED -> IGNORED;
      case STALE -> STALE;
      default -> throw new IllegalArgumentException("status must be done, ignored or stale, but was " + status);
    };
  }
}
