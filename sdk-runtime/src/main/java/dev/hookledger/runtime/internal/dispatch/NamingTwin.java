package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * The snake_case twin of a camelCase property name, or the other way round, when the payload has
 * it: almost always a naming mismatch between the class and the provider (Stripe, GitHub and Shopify
 * all write snake_case), whose fix is a naming strategy, not making the property optional.
 *
 * @param twin the name the payload has
 * @param snake whether the payload's name is the snake_case one
 */
record NamingTwin(String twin, boolean snake) {

  /** The twin of {@code name} that {@code node} has, if any. */
  static Optional<NamingTwin> of(String name, JsonNode node) {
    String snakeName = snake(name);
    if (!snakeName.equals(name) && node.has(snakeName)) {
      return Optional.of(new NamingTwin(snakeName, true));
    }
    String camelName = camel(name);
    if (!camelName.equals(name) && node.has(camelName)) {
      return Optional.of(new NamingTwin(camelName, false));
    }
    return Optional.empty();
  }

  /** The fix, first: the naming strategy for the whole type, or a name for this one property. */
  String advice(String typeName) {
    String strategy = snake ? "SnakeCaseStrategy" : "LowerCamelCaseStrategy";
    return "but the payload has '" + twin + "': it names its properties in " + (snake ? "snake_case" : "camelCase")
        + "; annotate " + typeName + " with @JsonNaming(PropertyNamingStrategies." + strategy + ".class), or name"
        + " this one @JsonProperty(\"" + twin + "\")";
  }

  private static String snake(String name) {
    StringBuilder out = new StringBuilder(name.length() + 4);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0 && name.charAt(i - 1) != '_') {
          out.append('_');
        }
        out.append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static String camel(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '_' && i > 0 && i + 1 < name.length()) {
        out.append(Character.toUpperCase(name.charAt(++i)));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
