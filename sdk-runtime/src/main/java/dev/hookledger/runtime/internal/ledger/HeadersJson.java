package dev.hookledger.runtime.internal.ledger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.hookledger.internal.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.JSONB;

/** The {@code event.headers} column: a JSON object of header names to values, never a signature. */
public final class HeadersJson {
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private HeadersJson() {}

  /**
   * The column value of {@code headers}, without those {@link HeaderRedaction} finds sensitive: the
   * same text Jackson writes for the map (each name and value a JSON string; quotes, backslashes and
   * control characters escaped as Jackson escapes them; everything else as it is), written by hand:
   * every delivery's headers are written once, on the request thread of an {@code INLINE} event or on
   * the group-commit writer, and a mapper's serializer lookup, generator and buffers cost more than
   * the few characters.
   */
  public static JSONB write(Map<String, String> headers) {
    StringBuilder json = new StringBuilder(64 + 48 * headers.size()).append('{');
    headers.forEach((name, value) -> {
      if (HeaderRedaction.isSensitive(name)) {
        return;
      }
      if (json.length() > 1) {
        json.append(',');
      }
      string(json, name).append(':');
      if (value == null) {
        json.append("null");
      } else {
        string(json, value);
      }
    });
    return JSONB.valueOf(json.append('}').toString());
  }

  /**
   * Appends {@code s} as a JSON string, escaped as Jackson escapes it by default; the runs between
   * the characters that need escaping (in a header, usually none) are copied whole.
   */
  private static StringBuilder string(StringBuilder json, String s) {
    json.append('"');
    int run = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\') {
        continue;
      }
      json.append(s, run, i);
      run = i + 1;
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\b' -> json.append("\\b");
        case '\t' -> json.append("\\t");
        case '\n' -> json.append("\\n");
        case '\f' -> json.append("\\f");
        case '\r' -> json.append("\\r");
        default -> json.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
      }
    }
    return json.append(s, run, s.length()).append('"');
  }

  /**
   * The headers of a column value, in their stored order; a non-string JSON value (written by
   * another tool) is given as its JSON text. Empty for SQL null.
   *
   * @throws IllegalStateException if the value is not a JSON object
   */
  public static Map<String, String> read(JSONB json) {
    if (json == null) {
      return Map.of();
    }
    Map<String, Object> raw;
    try {
      raw = Json.MAPPER.readValue(json.data(), OBJECT);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("event.headers is not a JSON object: " + Json.describe(e), e);
    }
    Map<String, String> out = new LinkedHashMap<>();
    raw.forEach((k, v) -> out.put(k, v instanceof String s ? s : String.valueOf(v)));
    return out;
  }
}
