package dev.hookledger.spi.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.hookledger.internal.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A body with one field changed, for the contract kit's rule that only identifying fields may make
 * a verified delivery malformed: each field of an object, at any depth, removed, set to null, to a
 * boolean, to an empty array, to an empty object and to a string that is no timestamp, number or id.
 *
 * @param description which field, and what it became
 * @param body the changed body
 * @param garbled whether the field now holds a value of another type or that does not parse (as
 *     opposed to being absent or null), so that nothing may be read from it
 */
record BodyMutation(String description, String body, boolean garbled) {

  /** Every change of every field of {@code json} whose JSON Pointer is not in {@code identifying}. */
  static List<BodyMutation> of(String json, Set<String> identifying) {
    JsonNode root = parse(json);
    List<BodyMutation> out = new ArrayList<>();
    collect(root, root, "", identifying, out);
    return out;
  }

  private static void collect(JsonNode root, JsonNode node, String pointer, Set<String> identifying,
      List<BodyMutation> out) {
    if (!node.isObject()) {
      return;
    }
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      String path = pointer + "/" + name.replace("~", "~0").replace("/", "~1");
      if (identifying.contains(path)) {
        continue;
      }
      JsonNodeFactory f = JsonNodeFactory.instance;
      out.add(change(root, path, "removed", null, false));
      out.add(change(root, path, "null", NullNode.getInstance(), false));
      out.add(change(root, path, "a JSON boolean", BooleanNode.TRUE, true));
      out.add(change(root, path, "an empty JSON array", new ArrayNode(f), true));
      out.add(change(root, path, "an empty JSON object", new ObjectNode(f), true));
      out.add(change(root, path, "the string \"not-a-value\"", TextNode.valueOf("not-a-value"), true));
      collect(root, node.get(name), path, identifying, out);
    }
  }

  /** A copy of {@code root} with the field at {@code path} replaced by {@code value}, or removed if null. */
  private static BodyMutation change(JsonNode root, String path, String what, JsonNode value, boolean garbled) {
    JsonNode copy = root.deepCopy();
    int slash = path.lastIndexOf('/');
    ObjectNode parent = (ObjectNode) copy.at(path.substring(0, slash));
    String name = path.substring(slash + 1).replace("~1", "/").replace("~0", "~");
    if (value == null) {
      parent.remove(name);
    } else {
      // keep the field's place: rebuild the object in order
      ObjectNode rebuilt = parent.objectNode();
      for (Map.Entry<String, JsonNode> e : parent.properties()) {
        rebuilt.set(e.getKey(), e.getKey().equals(name) ? value : e.getValue());
      }
      parent.removeAll();
      parent.setAll(rebuilt);
    }
    return new BodyMutation("field " + path + " " + (value == null ? "removed" : "as " + what), copy.toString(), garbled);
  }

  private static JsonNode parse(String json) {
    try {
      return Json.parse(json.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("validBody() is not JSON", e);
    }
  }
}
