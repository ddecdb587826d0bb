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

  private HeadersJson() {}

  /** The column value of {@code headers}, without those {@link HeaderRedaction} finds sensitive. */
  public static JSONB write(Map<String, String> headers) {
    try {
      return JSONB.valueOf(Json.MAPPER.writeValueAsString(HeaderRedaction.strip(headers)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write headers as JSON: " + Json.describe(e), e);
    }
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
