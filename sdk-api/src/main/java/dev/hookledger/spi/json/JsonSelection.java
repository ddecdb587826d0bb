package dev.hookledger.spi.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.internal.Json;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Some members of a JSON object, and members of its members: what an adapter reads from a body to
 * identify an event ({@code id}, {@code type}, {@code data.object.id}), without building the tree
 * of everything else. Reading a 2 KB Stripe event into a whole tree was half of the adapter's time;
 * the rest of the document is still read token by token, so malformed JSON fails as
 * {@link Json#parse} fails, at the same line and column. Immutable and thread-safe.
 *
 * <p>The result is a tree holding only the selected members, as the whole tree would hold them: a
 * selected leaf keeps its whole value (object, array or scalar), a selected object keeps only its
 * selected members, a member that occurs twice keeps its last value, and a selected object member
 * that is not an object is left out (as {@code path()} on the whole tree would find nothing there).
 */
public final class JsonSelection {
  private final Map<String, JsonSelection> members;

  private JsonSelection(Map<String, JsonSelection> members) {
    this.members = members;
  }

  /** An empty selection, to add members to. */
  public static JsonSelection members() {
    return new JsonSelection(Map.of());
  }

  /** This selection and the member {@code name}, kept whole. */
  public JsonSelection whole(String name) {
    return with(name, null);
  }

  /** This selection and the member {@code name}, an object of which only {@code selection} is kept. */
  public JsonSelection object(String name, JsonSelection selection) {
    return with(name, selection);
  }

  private JsonSelection with(String name, JsonSelection selection) {
    Map<String, JsonSelection> m = new LinkedHashMap<>(members);
    m.put(name, selection == null ? WHOLE : selection);
    return new JsonSelection(Map.copyOf(m));
  }

  private static final JsonSelection WHOLE = new JsonSelection(Map.of());

  /**
   * Reads {@code json}, keeping the selected members of its root object.
   *
   * @return the selected tree; or, when the root is not an object, the whole tree, as
   *     {@link Json#parse} gives it (the caller's check for an object then speaks as before)
   * @throws IOException as {@link Json#parse} throws
   */
  public JsonNode read(byte[] json) throws IOException {
    try (JsonParser p = Json.MAPPER.createParser(json)) {
      JsonToken first = p.nextToken();
      if (first != JsonToken.START_OBJECT) {
        return Json.parse(json);
      }
      return readObject(p, this);
    }
  }

  /**
   * {@link #read} of a verified body, refused as {@code DeliveryChecks.parseJson} refuses one: empty,
   * or not JSON, is {@code MALFORMED} with a message that never quotes the body.
   */
  public JsonNode readBody(byte[] json, String what) {
    if (json.length == 0) {
      throw JsonFields.malformed(what + " is empty; the signature holds, but there is no JSON to read");
    }
    try {
      return read(json);
    } catch (IOException e) {
      throw unreadable(what, e);
    }
  }

  /** The refusal of a verified body that is not JSON; the cause is dropped: Jackson's message can quote the body. */
  public static DeliveryRejectedException unreadable(String what, IOException e) {
    return JsonFields.malformed(
        what + " cannot be read: " + Json.describe(e) + "; the signature holds, so the sender signed it as is");
  }

  /** Reads the object whose START_OBJECT {@code p} is on, keeping {@code selection}'s members. */
  private static ObjectNode readObject(JsonParser p, JsonSelection selection) throws IOException {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      JsonSelection member = selection.members.get(name);
      JsonToken value = p.nextToken();
      if (member == null) {
        p.skipChildren();
      } else if (member == WHOLE) {
        node.set(name, p.readValueAsTree());
      } else if (value == JsonToken.START_OBJECT) {
        node.set(name, readObject(p, member));
      } else {
        p.skipChildren();
        node.remove(name); // the last occurrence counts, and it is not an object
      }
    }
    return node; // nextFieldName stops at END_OBJECT; anything else there, the parser has thrown
  }
}
