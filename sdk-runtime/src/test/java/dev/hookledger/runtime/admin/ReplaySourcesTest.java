package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A replay setting left as an unresolved {@code ${...}} placeholder is refused, naming where it came from. */
class ReplaySourcesTest {

  @Test
  void placeholderFromTheEnvironmentIsRefusedNamingTheVariable() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReplaySources.of(
        Map.of("HOOKLEDGER_FIXTURE_API_KEY", "${FIXTURE_API_KEY}")).create("fixture", Map.of()));
    assertEquals("environment variable HOOKLEDGER_FIXTURE_API_KEY is an unresolved placeholder (${...}): set the value"
        + " itself", e.getMessage());
  }

  @Test
  void placeholderGivenWithSetIsRefusedNamingTheSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ReplaySources.of(Map.of()).create("fixture", Map.of("api-key", "${FIXTURE_API_KEY}")));
    assertEquals("--set api-key is an unresolved placeholder (${...}): set the value itself", e.getMessage());
  }
}
