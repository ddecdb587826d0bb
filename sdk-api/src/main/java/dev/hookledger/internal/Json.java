package dev.hookledger.internal;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

/**
 * The one Jackson mapper hookledger uses. Not public API: users must not import it.
 *
 * <p>Unknown properties are ignored so that payload records can name only the fields they need,
 * and parse errors never quote the source, so a body cannot leak into a log through them.
 */
public final class Json {
  /** Shared, thread-safe once configured. */
  public static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          // bodies never reach error messages: a parse error must not quote the payload
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .findAndAddModules()
          .build();

  private Json() {}

  /**
   * A short description of a Jackson failure without the location text, which can quote the
   * source document.
   */
  public static String describe(IOException e) {
    if (e instanceof com.fasterxml.jackson.core.JacksonException je) {
      return je.getOriginalMessage();
    }
    return e.getClass().getSimpleName();
  }

  /** Parses a JSON document; a body that is not one object or array fails. */
  public static JsonNode parse(byte[] json) throws IOException {
    JsonNode node = MAPPER.readTree(json);
    if (node == null || node.isMissingNode()) {
      throw new IOException("empty document");
    }
    return node;
  }
}
