package dev.hookledger.runtime.spring.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.settings.BuilderSettings;
import dev.hookledger.runtime.internal.settings.RuntimeSettings;
import dev.hookledger.runtime.internal.settings.Setting;
import dev.hookledger.runtime.internal.settings.SettingsCatalogue;
import dev.hookledger.runtime.spring.HookledgerProperties;
import dev.hookledger.runtime.spring.internal.SpringRuntime;
import java.util.Map;
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
 * binding reads it: the retry policy, and durations, sizes and lists in the catalogue's one grammar.
 * Each starter's test extends it, so that it runs on that Boot generation's {@link Binder}. (That
 * Boot's metadata lists every property with the builder's default is {@code ConfigurationMetadataTest}'s,
 * in {@code spring-boot-common}, which ships it.)
 */
public abstract class SpringSettingsDoorContract {
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

  private static RuntimeSettings built(PropertySource<?> source) {
    HookledgerProperties p = new Binder(ConfigurationPropertySources.from(source))
        .bind("hookledger", Bindable.ofInstance(new HookledgerProperties())).orElseGet(HookledgerProperties::new);
    WebhookRuntimeBuilder b = WebhookRuntime.builder();
    SpringRuntime.options(b, p);
    return BuilderSettings.of(b);
  }
}
