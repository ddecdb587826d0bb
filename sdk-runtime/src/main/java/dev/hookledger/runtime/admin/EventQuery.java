package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.admin.ListCursor;
import dev.hookledger.runtime.internal.dispatch.TypePattern;
import java.util.Optional;

/**
 * What {@link InboxAdmin#list} selects: optional status (or group: waiting, failing, stuck), provider,
 * type (or type pattern) and id (an event's id or its delivery's) filters, a page size,
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

  private final StatusFilter status;
  private final String provider;
  private final TypePattern type;
  private final String id;
  private final int limit;
  private final String after;

  private EventQuery(Builder b) {
    this.status = b.status;
    this.provider = b.provider;
    this.type = b.type;
    this.id = b.id;
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

  /** The status or group selected; empty for any. */
  public Optional<StatusFilter> status() {
    return Optional.ofNullable(status);
  }

  public Optional<String> provider() {
    return Optional.ofNullable(provider);
  }

  /** The type or type pattern ({@code invoice.*}) selected, as given; empty for any. */
  public Optional<String> type() {
    return Optional.ofNullable(type).map(TypePattern::toString);
  }

  /** The event id or delivery id searched for, under any provider and scope; empty for any. */
  public Optional<String> id() {
    return Optional.ofNullable(id);
  }

  // the parsed pattern, for the reader
  Optional<TypePattern> typePattern() {
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
    private StatusFilter status;
    private String provider;
    private TypePattern type;
    private String id;
    private int limit = DEFAULT_LIMIT;
    private String after;

    private Builder() {}

    /** Only events in this status; null for any. */
    public Builder status(EventStatus status) {
      this.status = status == null ? null : StatusFilter.of(status);
      return this;
    }

    /** Only events in this status or group ({@link StatusFilter#FAILING}, ...); null for any. */
    public Builder status(StatusFilter status) {
      this.status = status;
      return this;
    }

    /** Only events of this provider id; null for any. */
    public Builder provider(String provider) {
      this.provider = blankToNull(provider, "provider");
      return this;
    }

    /**
     * Only events of this type, or matching this pattern as {@code @OnEvent} reads it: an exact type
     * ({@code invoice.paid}), a prefix ending in {@code *} ({@code invoice.*}), or {@code *}; null for any.
     *
     * @throws IllegalArgumentException naming the pattern and the rule it breaks ({@code *} only at the end)
     */
    public Builder type(String type) {
      String t = blankToNull(type, "type");
      this.type = t == null ? null : TypePattern.parse(t);
      return this;
    }

    /**
     * Only the events with this event id or delivery id (GitHub's {@code X-GitHub-Delivery}, ...),
     * under any provider and scope: an exact match, no pattern; null for any.
     */
    public Builder id(String id) {
      this.id = blankToNull(id, "id");
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

    /** Null stays null (any); blank text is refused, naming the parameter. */
    static String blankToNull(String value, String name) {
      if (value != null && value.isBlank()) {
        throw new IllegalArgumentException(name + " must not be blank; pass null for any " + name);
      }
      return value;
    }
  }
}
