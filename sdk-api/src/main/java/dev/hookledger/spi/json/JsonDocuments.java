package dev.hookledger.spi.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.internal.Json;
import java.io.IOException;

/**
 * Whole JSON documents as hookledger reads them, for an adapter's replay source reading a
 * provider's API answers: parsed by the runtime's own mapper, with failures described without
 * quoting the document, so that no body or credential reaches a log through an error message.
 * A delivery's body is read with {@link JsonSelection} or {@link dev.hookledger.spi.DeliveryChecks#parseJson}
 * instead.
 */
public final class JsonDocuments {
  private JsonDocuments() {}

  /**
   * Parses a JSON document.
   *
   * @return its tree, an object or an array (or a scalar, if that is what the document is)
   * @throws IOException if the document is empty or not JSON; describe it with {@link #describe}
   */
  public static JsonNode parse(byte[] json) throws IOException {
    return Json.parse(json);
  }

  /**
   * A short description of a failure to read JSON that never quotes the document: the kind of
   * failure, the target type, and the position or property path ({@code malformed JSON at line 1,
   * column 7}).
   */
  public static String describe(IOException e) {
    return Json.describe(e);
  }
}
