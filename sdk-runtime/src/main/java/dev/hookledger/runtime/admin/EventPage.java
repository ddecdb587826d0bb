package dev.hookledger.runtime.admin;

import java.util.List;
import java.util.Optional;

/**
 * One page of a {@link InboxAdmin#list list}, newest first, and the cursor of the next page.
 * Immutable.
 */
public final class EventPage {
  private final List<EventSummary> events;
  private final String nextCursor;

  EventPage(List<EventSummary> events, String nextCursor) {
    this.events = List.copyOf(events);
    this.nextCursor = nextCursor;
  }

  /** The events, newest received first. Never null. */
  public List<EventSummary> events() {
    return events;
  }

  /**
   * An opaque cursor to pass to {@link EventQuery.Builder#after(String)} for the next (older)
   * page; empty when this page is the last.
   */
  public Optional<String> nextCursor() {
    return Optional.ofNullable(nextCursor);
  }
}
