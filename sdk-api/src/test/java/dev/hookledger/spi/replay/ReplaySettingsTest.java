package dev.hookledger.spi.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplaySettingsTest {

  @Test
  void missingRequiredSettingNamesTheFlagAndTheEnvironmentVariable() {
    ReplaySettings settings = new ReplaySettings("stripe", Map.of("api-key", "  "));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> settings.required("api-key"));

    assertEquals(
        "stripe replay needs the setting 'api-key' (--set api-key=... or HOOKLEDGER_STRIPE_API_KEY)", e.getMessage());
  }

  @Test
  void booleanAcceptsTrueAndFalseOnly() {
    ReplaySettings settings = new ReplaySettings("github", Map.of("app", "TRUE", "other", "yes"));

    assertEquals(Optional.of(true), settings.bool("app"));
    assertEquals(Optional.empty(), settings.bool("absent"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> settings.bool("other"));
    assertEquals("github replay setting 'other' must be true or false, but was 'yes'", e.getMessage());
  }

  @Test
  void baseUrlIsNormalisedOrRefusedNamingTheValue() {
    ReplaySettings settings = new ReplaySettings("github", Map.of("api-base", "https://ghe.example.com/api/v3/", "bad", "ftp://x"));

    assertEquals(URI.create("https://ghe.example.com/api/v3"), settings.baseUri("api-base", "https://api.github.com"));
    assertEquals(URI.create("https://api.github.com"), settings.baseUri("absent", "https://api.github.com"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> settings.baseUri("bad", "https://a"));
    assertEquals(
        "github replay setting 'bad' must be an absolute http or https URL without query, but was 'ftp://x'",
        e.getMessage());
  }

  @Test
  void badSecretIsNamedButNeverShown() {
    ReplaySettings settings = new ReplaySettings("stripe", Map.of());

    assertEquals(
        "stripe replay setting 'api-key' must start with sk_ or rk_ (the value is not shown: it is a secret)",
        settings.badSecret("api-key", "must start with sk_ or rk_").getMessage());
  }
}
