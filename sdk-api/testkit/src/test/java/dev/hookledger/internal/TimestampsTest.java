package dev.hookledger.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.spi.testing.TextMutations;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fast path answers exactly as {@link OffsetDateTime#parse} does: same instant, or the same refusal. */
class TimestampsTest {

  @Test
  void readsTheShapesProvidersSend() {
    assertEquals(Instant.parse("2024-05-01T12:00:00Z"), Timestamps.parseOffsetDateTime("2024-05-01T12:00:00Z"));
    assertEquals(Instant.parse("2024-05-01T16:00:00.123Z"), Timestamps.parseOffsetDateTime("2024-05-01T12:00:00.123-04:00"));
    assertEquals(Instant.parse("2024-05-01T10:30:00.000000001Z"),
        Timestamps.parseOffsetDateTime("2024-05-01T12:00:00.000000001+01:30"));
    assertEquals(Instant.parse("0001-01-01T00:00:00Z"), Timestamps.parseOffsetDateTime("0001-01-01T00:00:00Z"));
  }

  @Test
  void refusesWhatTheJdkRefusesWithItsOwnError() {
    for (String bad : List.of("2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
        "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T12:00:60Z", "2024-05-01T12:00:00+19:00",
        "2024-05-01T12:00:00.1234567891Z", "2024-05-01T12:00:00", "2024-05-01 12:00:00Z",
        "2024-05-01T12:00:00ZZ", "２０２４-05-01T12:00:00Z", "")) {
      DateTimeParseException expected = assertThrows(DateTimeParseException.class, () -> OffsetDateTime.parse(bad), bad);
      DateTimeParseException actual = assertThrows(DateTimeParseException.class,
          () -> Timestamps.parseOffsetDateTime(bad), bad);
      assertEquals(expected.getMessage(), actual.getMessage(), bad);
    }
  }

  @Test
  void agreesWithTheJdkOnShapesOutsideTheFastPath() {
    for (String other : List.of("2024-05-01T12:00Z", "2024-05-01t12:00:00z", "2024-05-01T12:00:00+0100",
        "2024-05-01T12:00:00+01:00:30", "2024-05-01T12:00:00.Z", "+12024-05-01T12:00:00Z", "-0001-05-01T12:00:00Z", "2024-05-01T12:00:00-00:00")) {
      assertSame(other);
    }
  }

  @Test
  void agreesWithTheJdkOnTenThousandMutatedTimestamps() {
    List<String> seeds = List.of("2024-05-01T12:00:00Z", "1999-12-31T23:59:59.999999999+14:00",
        "2020-02-29T00:00:00.5-18:00", "9999-12-31T23:59:59Z");
    List<String> cases = TextMutations.of(seeds, "0123456789-+:.TZtz ", 3, 10_000, 7);
    cases.forEach(TimestampsTest::assertSame);
  }

  private static void assertSame(String text) {
    Object expected;
    try {
      expected = OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      expected = e.getMessage();
    }
    Object actual;
    try {
      actual = Timestamps.parseOffsetDateTime(text);
    } catch (DateTimeParseException e) {
      actual = e.getMessage();
    }
    assertEquals(expected, actual, text);
  }
}
