package dev.hookledger.runtime.internal.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RootCauseTest {
  @Test
  void theDeepestCauseWithoutItsPackage() {
    String error = "@OnEvent method 'void com.acme.Billing.paid(Invoice)' failed on stripe event evt_1\n"
        + "java.lang.IllegalStateException: invoice in_1 is in EUR\n"
        + "\tat com.acme.Billing.paid(Billing.java:42)\n"
        + "Caused by: com.acme.money.Rates$Missing: no EUR rate for 2025-03-01\n"
        + "\tat com.acme.money.Rates.get(Rates.java:7)\n"
        + "\t... 2 more\n";

    assertEquals("Rates$Missing: no EUR rate for 2025-03-01", RootCause.of(error));
  }

  @Test
  void theOnlyCauseWhenThereIsNoCausedBy() {
    assertEquals("IllegalStateException: card declined",
        RootCause.of("handler failed\njava.lang.IllegalStateException: card declined\n\tat a.B.c(B.java:1)\n"));
  }

  @Test
  void aCauseWithoutAMessageAndAMultiLineMessage() {
    assertEquals("NullPointerException", RootCause.of("failed\njava.lang.NullPointerException\n\tat a.B.c(B.java:1)\n"));
    assertEquals("SQLException: line one",
        RootCause.of("failed\njava.lang.RuntimeException: x\n\tat a.B.c(B.java:1)\n"
            + "Caused by: java.sql.SQLException: line one\nline two\n\tat a.B.d(B.java:2)\n"));
  }

  @Test
  void aBareStackTraceIsItsThrowable() {
    assertEquals("IllegalStateException: issue 12 not found",
        RootCause.of("java.lang.IllegalStateException: issue 12 not found\n\tat com.acme.Issues.opened(Issues.java:40)"));
  }

  @Test
  void textThatIsNotATraceIsItsFirstLine() {
    String abandoned = "attempt 2 by node-a was abandoned: its lease ran out at 2025-03-01T12:00:00Z"
        + " (its node stopped, or lost the database, for longer than the lease); no attempt left (12 of 12)";
    assertEquals(abandoned, RootCause.of(abandoned));
    assertEquals("boom", RootCause.of("boom"));
    assertEquals("first", RootCause.of("first\nsecond"));
    assertEquals("", RootCause.of(""));
  }

  @Test
  void aLongCauseIsCutToOneBoundedLine() {
    String cause = RootCause.of("failed\njava.lang.IllegalStateException: " + "x".repeat(500) + "\n\tat a.B.c(B.java:1)\n");
    assertEquals(RootCause.MAX_CHARS, cause.length());
    assertEquals('…', cause.charAt(cause.length() - 1));
  }

  @Test
  void aMessageWithLineBreaksKeepsItsClassAndFirstLine() {
    RuntimeException failure = new RuntimeException("@OnEvent method 'void a.Billing.paid(Invoice)' failed",
        new IllegalStateException("invoice in_1\r\nFAKE: all good"));

    assertEquals("IllegalStateException: invoice in_1", RootCause.of(FailureText.of(failure)));
  }

  @Test
  void aMessageCannotForgeACauseOrFrames() {
    String forged = "in_1\nCaused by: com.evil.Fake: paid\n\tat com.evil.Fake.x(Fake.java:1)\rCaused by: Other: y";
    RuntimeException failure = new RuntimeException("handler failed: " + forged, new IllegalStateException(forged));

    assertEquals("IllegalStateException: in_1", RootCause.of(FailureText.of(failure)));
    // the wrapper's own message alone, without a cause, is read the same way
    assertEquals("IllegalStateException: in_1", RootCause.of(FailureText.of(new IllegalStateException(forged))));
  }

  @Test
  void everyLineBreakOfAMessageIsAContinuation() {
    for (String br : new String[] {"\r", "\n", "\r\n", "\u000b", "\u000c", "\u0085", "\u2028", "\u2029"}) {
      String text = FailureText.of(new RuntimeException("wrapped", new IllegalStateException("first" + br + "Fake: x")));
      assertEquals("IllegalStateException: first", RootCause.of(text), text);
    }
  }

  @Test
  void controlAndBidiCharactersAreShownEscaped() {
    RuntimeException failure = new RuntimeException("wrapped",
        new IllegalStateException("invoice \u202ein_1\u202c \u001b[31mred\u0007\ttab\u200f\u2066x\u2069\u0085"));

    assertEquals("IllegalStateException: invoice \\u202ein_1\\u202c \\u001b[31mred\\u0007\\u0009tab\\u200f\\u2066x\\u2069",
        RootCause.of(FailureText.of(failure)));
    assertEquals("a\\u202eb", RootCause.of("a\u202eb"));
  }
}
