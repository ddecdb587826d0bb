package dev.hookledger.runtime.spring.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.settings.RuntimeInternals;
import dev.hookledger.runtime.internal.settings.RuntimeSettings;
import dev.hookledger.runtime.internal.settings.Setting;
import dev.hookledger.runtime.internal.settings.SettingsCatalogue;
import dev.hookledger.runtime.spring.HookledgerProperties;
import dev.hookledger.runtime.spring.internal.SpringDestinations;
import dev.hookledger.runtime.spring.internal.SpringRuntime;
import java.net.URI;
import java.time.Duration;
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
 * binding reads it: the retry policy, and durations, sizes and lists in the catalogue's one grammar; and
 * the outbox's destinations ({@code hookledger.destinations.<name>.*}). Each starter's test extends it, so that it runs on that Boot generation's {@link Binder}. (That
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

  @Test
  void everyDestinationSettingIsReachedFromItsProperty() {
    Map<String, Object> properties = new java.util.HashMap<>();
    """
        url=https://mail.example.com
        timeout=7s
        connect-timeout=2s
        max-attempts=5
        first-delay=3s
        max-delay=1m
        concurrency=4
        rate-per-second=2.5
        burst=6
        idempotency-header=X-Receipt-Key
        breaker-failures=3
        breaker-probe-after=45s""".lines().map(line -> line.split("=", 2))
        .forEach(kv -> properties.put("hookledger.destinations.receipts." + kv[0], kv[1]));

    Destination receipts = built(new MapPropertySource("test", properties)).outbox().destinations().get("receipts");

    assertEquals(URI.create("https://mail.example.com"), receipts.url().orElseThrow());
    assertEquals(Duration.ofSeconds(7), receipts.timeout());
    assertEquals(Duration.ofSeconds(2), receipts.connectTimeout());
    assertEquals(5, receipts.maxAttempts());
    assertEquals(Duration.ofSeconds(3), receipts.retry().firstDelay());
    assertEquals(Duration.ofMinutes(1), receipts.retry().maxDelay());
    assertEquals(4, receipts.concurrency());
    assertEquals(2.5, receipts.ratePerSecond());
    assertEquals(6, receipts.burst());
    assertEquals("X-Receipt-Key", receipts.idempotencyHeader());
    assertEquals(3, receipts.breakerFailures());
    assertEquals(Duration.ofSeconds(45), receipts.breakerProbeAfter());
  }

  @Test
  void anUnsetDestinationSettingKeepsItsDefault() {
    Destination receipts = built(new MapPropertySource("test",
        Map.of("hookledger.destinations.receipts.url", "https://mail.example.com"))).outbox().destinations().get("receipts");

    Destination defaults = Destination.named("receipts");
    assertEquals(defaults.timeout(), receipts.timeout());
    assertEquals(defaults.maxAttempts(), receipts.maxAttempts());
    assertEquals(defaults.concurrency(), receipts.concurrency());
    assertEquals(defaults.idempotencyHeader(), receipts.idempotencyHeader());
    assertEquals(defaults.breakerFailures(), receipts.breakerFailures());
  }

  @Test
  void aDestinationNamedByAnOriginIsWrittenInBrackets() {
    Destination origin = built(new MapPropertySource("test",
        Map.of("hookledger.destinations.[https://api.example.com].rate-per-second", "5")))
        .outbox().destinations().get("https://api.example.com");

    assertEquals(5.0, origin.ratePerSecond());
  }

  @Test
  void aBadDestinationSettingFailsNamingItsProperty() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> built(new MapPropertySource("test", Map.of("hookledger.destinations.receipts.concurrency", "0"))));

    assertEquals("hookledger.destinations.receipts.concurrency: concurrency must be >= 1, but was 0", e.getMessage());
  }

  private static RuntimeSettings built(PropertySource<?> source) {
    HookledgerProperties p = new Binder(ConfigurationPropertySources.from(source))
        .bind("hookledger", Bindable.ofInstance(new HookledgerProperties())).orElseGet(HookledgerProperties::new);
    WebhookRuntimeBuilder b = WebhookRuntime.builder();
    SpringRuntime.options(b, p);
    SpringDestinations.apply(b, p.getDestinations());
    return RuntimeInternals.settings(b);
  }
}
