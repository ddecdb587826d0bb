package dev.hookledger.internal;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
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

  private static final String EMPTY = "empty document";

  private Json() {}

  /**
   * A short description of a Jackson failure that never quotes the document: Jackson's own messages
   * can ({@code Unrecognized token 'secret'}, {@code from String "4242..."}), so only the kind of
   * failure, the target type, and the position or property path are kept.
   */
  public static String describe(IOException e) {
    if (e instanceof InvalidDefinitionException definition) {
      // about the target class, not the data
      return definition.getOriginalMessage();
    }
    if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      return "cannot read " + mismatch.getTargetType().getSimpleName() + " at " + path(mismatch);
    }
    if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      return "cannot map the value at " + path(mapping);
    }
    if (e instanceof JacksonException je && je.getLocation() != null && je.getLocation().getLineNr() > 0) {
      return "malformed JSON at line " + je.getLocation().getLineNr() + ", column " + je.getLocation().getColumnNr();
    }
    return e.getMessage() != null && e.getMessage().equals(EMPTY) ? EMPTY : e.getClass().getSimpleName();
  }

  private static String path(JsonMappingException e) {
    return e.getPath().isEmpty() ? "the root" : e.getPathReference();
  }

  /** Parses a JSON document; a body that is not one object or array fails. */
  public static JsonNode parse(byte[] json) throws IOException {
    JsonNode node = MAPPER.readTree(json);
    if (node == null || node.isMissingNode()) {
      throw new IOException(EMPTY);
    }
    return node;
  }
}
