package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.EventStatus;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which events a {@link EventQuery} selects by where they stand: one {@link EventStatus}, or one of
 * the operator's groups ({@link #WAITING}, {@link #FAILING}, {@link #STUCK}).
 */
public enum StatusFilter {
  PENDING,
  PROCESSING,
  DONE,
  IGNORED,
  STALE,
  DEAD,
  /** {@code pending} or {@code processing}: a worker will still take them on their own. */
  WAITING,
  /**
   * Waiting after at least one failed attempt: backing off until their next attempt, or in it now.
   * See {@link EventSummary#failing()}.
   */
  FAILING,
  /**
   * Waiting and due for longer than the admin's {@link InboxAdmin.Builder#stuckAfter stuckAfter}
   * with no worker taking them: an expired lease nobody took over, or a due event nobody claimed.
   */
  STUCK;

  /** The filter of one status. */
  public static StatusFilter of(EventStatus status) {
    return valueOf(requireNonNull(status, "status").name());
  }

  /** The lower-case name, as the command line and the admin page write it. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The filter a person wrote, in any case ({@code dead}, {@code DEAD}, {@code Failing}).
   *
   * @throws IllegalArgumentException naming the value and every filter there is
   */
  public static StatusFilter parse(String text) {
    requireNonNull(text, "status");
    for (StatusFilter f : values()) {
      if (f.name().equalsIgnoreCase(text.trim())) {
        return f;
      }
    }
    throw new IllegalArgumentException("status must be one of "
        + Arrays.stream(values()).map(StatusFilter::text).collect(Collectors.joining(", "))
        + ", but was '" + text + "'");
  }
}
