package dev.hookledger.runtime.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.settings.BuilderSettings;
import dev.hookledger.runtime.internal.settings.RuntimeSettings;
import dev.hookledger.runtime.internal.settings.Setting;
import dev.hookledger.runtime.internal.settings.SettingsCatalogue;
import dev.hookledger.runtime.spring.HookledgerProperties;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The Spring door reaches every option of the runtime's catalogue (but the pool's own, which are
 * the application's pool's), by its property and by its environment variable as Boot's relaxed
 * binding reads it, on this Boot generation's binder; and Boot's metadata lists each property.
 */
class SpringSettingsDoorTest {
  @Test
  void everyOptionIsReachedFromItsProperty() {
    for (Setting<?> s : SettingsCatalogue.all()) {
      if (!s.isOwnPoolOnly()) {
        RuntimeSettings built = built(new MapPropertySource("test", Map.of(s.property(), s.example())));
        assertEquals(s.parse(s.example()), s.read(built), s.property() + " did not reach " + s.builderCall());
      }
    }
  }

  @Test
  void everyOptionIsReachedFromItsEnvironmentVariable() {
    for (Setting<?> s : SettingsCatalogue.all()) {
      if (!s.isOwnPoolOnly()) {
        RuntimeSettings built = built(new SystemEnvironmentPropertySource(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(s.environmentVariable(), s.example())));
        assertEquals(s.parse(s.example()), s.read(built), s.environmentVariable() + " did not reach " + s.builderCall());
      }
    }
  }

  @Test
  void unsetPropertiesKeepTheBuildersDefaults() {
    RuntimeSettings built = built(new MapPropertySource("test", Map.of()));
    RuntimeSettings defaults = SettingsCatalogue.defaults();
    for (Setting<?> s : SettingsCatalogue.all()) {
      assertEquals(s.read(defaults), s.read(built), s.property());
    }
  }

  @Test
  void bootsMetadataListsEveryProperty() throws IOException {
    Set<String> listed = new HashSet<>();
    try (InputStream in = HookledgerProperties.class.getClassLoader()
        .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
      for (JsonNode p : new ObjectMapper().readTree(in).get("properties")) {
        listed.add(p.get("name").asText());
      }
    }
    for (Setting<?> s : SettingsCatalogue.all()) {
      assertTrue(s.isOwnPoolOnly() || listed.contains(s.property()), s.property() + " is not in Boot's metadata");
    }
  }

  private static RuntimeSettings built(PropertySource<?> source) {
    HookledgerProperties p = new Binder(ConfigurationPropertySources.from(source))
        .bind("hookledger", Bindable.ofInstance(new HookledgerProperties())).orElseGet(HookledgerProperties::new);
    WebhookRuntimeBuilder b = WebhookRuntime.builder();
    SpringRuntime.options(b, p);
    return BuilderSettings.of(b);
  }
}
