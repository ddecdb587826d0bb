package dev.hookledger.runtime.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.runtime.internal.settings.RuntimeSettings;
import dev.hookledger.runtime.internal.settings.Setting;
import dev.hookledger.runtime.internal.settings.SettingsCatalogue;
import dev.hookledger.runtime.internal.settings.SettingsTable;
import dev.hookledger.runtime.spring.HookledgerProperties;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The configuration metadata this jar ships (what an IDE shows for {@code hookledger.*}) lists every
 * option of the runtime's settings catalogue with the builder's default, in the catalogue's grammar.
 * The properties themselves default to null (unset keeps the builder's default, the only owner), so
 * the defaults reach the metadata through {@code additional-spring-configuration-metadata.json}; this
 * test fails when a default changes in the builder and not there, and prints what to put there.
 */
class ConfigurationMetadataTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theMetadataListsEveryOption() throws IOException {
    Map<String, JsonNode> listed = shipped();
    for (Setting<?> s : SettingsCatalogue.all()) {
      assertTrue(s.isOwnPoolOnly() || listed.containsKey(s.property()), s.property() + " is not in Boot's metadata");
    }
  }

  @Test
  void theMetadataListsTheOutboxsDestinationsByName() throws IOException {
    JsonNode destinations = shipped().get("hookledger.destinations");

    assertTrue(destinations != null, "hookledger.destinations is not in Boot's metadata");
    // an IDE completes hookledger.destinations.<name>.* from the value type's properties
    assertEquals("java.util.Map<java.lang.String," + HookledgerProperties.Destination.class.getName() + ">",
        destinations.get("type").asText());
  }

  @Test
  void theMetadataShowsTheBuildersDefaults() throws IOException {
    Map<String, JsonNode> listed = shipped();
    RuntimeSettings defaults = SettingsCatalogue.defaults();
    Map<String, String> wrong = new TreeMap<>();
    for (Setting<?> s : SettingsCatalogue.all()) {
      if (s.isOwnPoolOnly()) {
        continue;
      }
      Optional<String> expected = SettingsTable.fixedDefault(s, defaults);
      JsonNode shown = listed.get(s.property()).get("defaultValue");
      Optional<String> actual = shown == null ? Optional.empty() : Optional.of(shown.asText());
      // equal as values of the catalogue's grammar: the processor writes 2.0 as 2
      if (!expected.map(s::parse).equals(actual.map(s::parse))) {
        wrong.put(s.property(), "shows " + actual.orElse("no default") + ", the builder's is "
            + expected.orElse("none (machine-dependent or unset)"));
      }
    }
    if (!wrong.isEmpty()) {
      fail("Boot's metadata does not show the builder's defaults: " + wrong + "; put these entries in"
          + " spring-boot-common/src/main/resources/META-INF/additional-spring-configuration-metadata.json:\n"
          + expectedEntries(defaults));
    }
  }

  /** The properties of the metadata the configuration processor generated, merged with the additional file. */
  private static Map<String, JsonNode> shipped() throws IOException {
    Map<String, JsonNode> byName = new HashMap<>();
    try (InputStream in = HookledgerProperties.class.getClassLoader()
        .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
      for (JsonNode p : JSON.readTree(in).get("properties")) {
        byName.put(p.get("name").asText(), p);
      }
    }
    return byName;
  }

  private static String expectedEntries(RuntimeSettings defaults) throws IOException {
    ArrayNode entries = JSON.createArrayNode();
    for (Setting<?> s : SettingsCatalogue.all()) {
      Optional<String> value = s.isOwnPoolOnly() ? Optional.empty() : SettingsTable.fixedDefault(s, defaults);
      if (value.isPresent()) {
        ObjectNode e = entries.addObject().put("name", s.property()).put("type", s.kind().type().getName());
        Object v = s.parse(value.get());
        if (v instanceof Number) {
          e.set("defaultValue", JSON.valueToTree(v));
        } else {
          e.put("defaultValue", value.get());
        }
      }
    }
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(entries);
  }
}
