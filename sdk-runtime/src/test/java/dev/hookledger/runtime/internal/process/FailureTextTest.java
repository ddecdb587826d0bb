package dev.hookledger.runtime.internal.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FailureTextTest {
  private static final StackTraceElement PAID = new StackTraceElement("com.acme.Billing", "paid", "Billing.java", 42);
  private static final StackTraceElement DISPATCH = new StackTraceElement("com.acme.Dispatch", "run", "Dispatch.java", 10);

  @Test
  void startsWithTheFailureMessageThenTheCauseWithItsFramesAndSummarizesSharedOnes() {
    ArithmeticException deep = new ArithmeticException("deep");
    deep.setStackTrace(new StackTraceElement[] {
        new StackTraceElement("com.acme.Money", "convert", "Money.java", 7), PAID, DISPATCH});
    IllegalStateException cause = new IllegalStateException("invoice in_1 is in EUR", deep);
    cause.setStackTrace(new StackTraceElement[] {PAID, DISPATCH});

    String text = FailureText.of(new RuntimeException("handler Billing.paid failed", cause));

    assertEquals("handler Billing.paid failed\n"
        + "java.lang.IllegalStateException: invoice in_1 is in EUR\n"
        + "\tat com.acme.Billing.paid(Billing.java:42)\n"
        + "\tat com.acme.Dispatch.run(Dispatch.java:10)\n"
        + "Caused by: java.lang.ArithmeticException: deep\n"
        + "\tat com.acme.Money.convert(Money.java:7)\n"
        + "\t... 2 more\n", text);
    assertEquals("ArithmeticException: deep", dev.hookledger.runtime.internal.process.RootCause.of(text),
        "the one line an operator reads first is the deepest cause");
  }

  @Test
  void isBoundedAndSurvivesACycleOfCauses() {
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b);
    a.setStackTrace(new StackTraceElement[] {PAID});
    b.setStackTrace(new StackTraceElement[] {PAID});

    String huge = FailureText.of(new RuntimeException("x".repeat(20_000), a));
    String cycle = FailureText.of(new RuntimeException("outer", a));

    assertEquals(FailureText.MAX_CHARS, huge.length());
    assertTrue(huge.endsWith("…"));
    assertEquals("outer\njava.lang.RuntimeException: a\n\tat com.acme.Billing.paid(Billing.java:42)\n"
        + "Caused by: java.lang.RuntimeException: b\n\t... 1 more\n", cycle);
  }
}
