package dev.hookledger.runtime.internal.admin;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * The position after the last row of a list page: the sort key {@code (received_at, provider,
 * scope, event_id)}, encoded as an opaque URL-safe token.
 *
 * @param receivedAt received_at of the last row
 * @param provider its provider
 * @param scope its scope
 * @param eventId its event id
 */
public record ListCursor(Instant receivedAt, String provider, String scope, String eventId) {
  private static final char SEPARATOR = '\u001f';

  /** The token for {@code EventPage.nextCursor()}. */
  public String encode() {
    String raw = receivedAt.getEpochSecond() + "." + receivedAt.getNano() + SEPARATOR + provider
        + SEPARATOR + scope + SEPARATOR + eventId;
    return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Reads a token made by {@link #encode()}.
   *
   * @throws IllegalArgumentException if it is not one
   */
  public static ListCursor decode(String token) {
    try {
      String raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
      String[] parts = raw.split(String.valueOf(SEPARATOR), -1);
      String[] time = parts[0].split("\\.", -1);
      if (parts.length != 4 || time.length != 2) {
        throw new IllegalArgumentException("wrong shape");
      }
      Instant at = Instant.ofEpochSecond(Long.parseLong(time[0]), Long.parseLong(time[1]));
      return new ListCursor(at, parts[1], parts[2], parts[3]);
    } catch (IllegalArgumentException | java.time.DateTimeException e) {
      throw new IllegalArgumentException("cursor is not one that a list page returned: '" + token + "'", e);
    }
  }
}
