package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.admin.ListCursor;
import java.util.Optional;

/**
 * What {@link InboxAdmin#list} selects: optional status, provider and type filters, a page size,
 * and the cursor of the page to continue after. Immutable; build with {@link #builder()}.
 *
 * <p>Pages are keyset pages, newest received first: continuing with {@link EventPage#nextCursor()}
 * neither skips nor repeats rows when new events arrive between pages.
 */
public final class EventQuery {
  /** The page size when none is given. */
  public static final int DEFAULT_LIMIT = 50;
  /** The largest page size. */
  public static final int MAX_LIMIT = 1000;

  private final EventStatus status;
  private final String provider;
  private final String type;
  private final int limit;
  private final String after;

  private EventQuery(Builder b) {
    this.status = b.status;
    this.provider = b.provider;
    this.type = b.type;
    this.limit = b.limit;
    this.after = b.after;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Every event, newest first, one default-sized page. */
  public static EventQuery all() {
    return builder().build();
  }

  public Optional<EventStatus> status() {
    return Optional.ofNullable(status);
  }

  public Optional<String> provider() {
    return Optional.ofNullable(provider);
  }

  public Optional<String> type() {
    return Optional.ofNullable(type);
  }

  public int limit() {
    return limit;
  }

  /** The cursor of the page to continue after; empty for the first page. */
  public Optional<String> after() {
    return Optional.ofNullable(after);
  }

  /** Builds an {@link EventQuery}; every setter validates and names the bad value. */
  public static final class Builder {
    private EventStatus status;
    private String provider;
    private String type;
    private int limit = DEFAULT_LIMIT;
    private String after;

    private Builder() {}

    /** Only events in this status; null for any. */
    public Builder status(EventStatus status) {
      this.status = status;
      return this;
    }

    /** Only events of this provider id; null for any. */
    public Builder provider(String provider) {
      this.provider = blankToNull(provider, "provider");
      return this;
    }

    /** Only events of exactly this type; null for any. */
    public Builder type(String type) {
      this.type = blankToNull(type, "type");
      return this;
    }

    /** At most this many events per page, 1 to {@value #MAX_LIMIT}; default {@value #DEFAULT_LIMIT}. */
    public Builder limit(int limit) {
      if (limit < 1 || limit > MAX_LIMIT) {
        throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", but was " + limit);
      }
      this.limit = limit;
      return this;
    }

    /** Continues after the page that returned this {@link EventPage#nextCursor() cursor}; null for the first page. */
    public Builder after(String cursor) {
      if (cursor != null) {
        ListCursor.decode(cursor);
      }
      this.after = cursor;
      return this;
    }

    public EventQuery build() {
      return new EventQuery(this);
    }

    private static String blankToNull(String value, String name) {
      if (value != null && value.isBlank()) {
        throw new IllegalArgumentException(name + " must not be blank; pass null for any " + name);
      }
      return value;
    }
  }
}
