package dev.hookledger.spi.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hookledger.internal.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Cuts objects and arrays out of a UTF-8 JSON document as the exact bytes they were sent as, so
 * that an event fetched inside a provider's API response keeps the provider's own serialisation
 * (whitespace, number forms, key order) instead of Jackson's.
 */
public final class RawJson {
  private RawJson() {}

  /**
   * The exact bytes of each element of the array at {@code path} (no path: the document itself is
   * the array). An absent or JSON-null array has no elements.
   *
   * @throws IOException if the document is not JSON, the value at {@code path} is neither an array
   *     nor null, or an element is not an object or array
   */
  public static List<byte[]> elements(byte[] document, String... path) throws IOException {
    try (JsonParser p = Json.MAPPER.getFactory().createParser(document)) {
      JsonToken token = walk(p, path);
      if (token == null || token == JsonToken.VALUE_NULL) {
        return List.of();
      }
      if (token != JsonToken.START_ARRAY) {
        throw new IOException(describe(path) + " is not an array");
      }
      List<byte[]> elements = new ArrayList<>();
      while (p.nextToken() != JsonToken.END_ARRAY) {
        elements.add(slice(p, document).orElseThrow(
            () -> new IOException("element " + elements.size() + " of " + describe(path) + " is not an object or array")));
      }
      return elements;
    }
  }

  /**
   * The exact bytes of the object or array at {@code path}; empty when it is absent or a scalar
   * (JSON null included).
   *
   * @throws IOException if the document is not JSON
   */
  public static Optional<byte[]> value(byte[] document, String... path) throws IOException {
    try (JsonParser p = Json.MAPPER.getFactory().createParser(document)) {
      return walk(p, path) == null ? Optional.empty() : slice(p, document);
    }
  }

  /** Moves the parser onto the first token of the value at {@code path}; null if it is absent. */
  private static JsonToken walk(JsonParser p, String... path) throws IOException {
    JsonToken token = p.nextToken();
    for (String field : path) {
      if (token != JsonToken.START_OBJECT) {
        return null;
      }
      token = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (name.equals(field)) {
          token = value;
          break;
        }
        p.skipChildren();
      }
      if (token == null) {
        return null;
      }
    }
    return token;
  }

  /** The bytes from the current start token to its matching end token, for containers only. */
  private static Optional<byte[]> slice(JsonParser p, byte[] document) throws IOException {
    if (!p.currentToken().isStructStart()) {
      return Optional.empty();
    }
    long start = p.currentTokenLocation().getByteOffset();
    p.skipChildren();
    // the closing '}' or ']' is one byte
    long end = p.currentTokenLocation().getByteOffset() + 1;
    return Optional.of(Arrays.copyOfRange(document, (int) start, (int) end));
  }

  private static String describe(String... path) {
    return path.length == 0 ? "the document" : "'" + String.join(".", path) + "'";
  }
}
