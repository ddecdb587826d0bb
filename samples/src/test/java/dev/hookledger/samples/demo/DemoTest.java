package dev.hookledger.samples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The demo run in-process, as {@code java -jar hookledger-samples.jar} runs it. */
class DemoTest {

  @Test
  void demoEndsWithTheVerdictThatEveryEffectHappenedExactlyOnce() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Demo.Result result;
    // the report goes to the test's output as it is written, and is kept for the assertions
    OutputStream tee = new OutputStream() {
      @Override
      public void write(int b) {
        bytes.write(b);
        System.out.write(b);
      }
    };
    try (PrintStream out = new PrintStream(tee, true, StandardCharsets.UTF_8)) {
      result = new Demo(out, Clock.systemUTC()).run();
    }
    String report = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(List.of(), result.problems(), report);
    assertTrue(result.exactlyOnce());
    assertTrue(report.contains("\nVERDICT: exactly once holds"), report);
    // the narrated steps, each with what was sent, what the server answered, what the ledger says
    assertTrue(report.contains("20 copies released at the same instant"), report);
    assertTrue(report.contains("19 x 200 duplicate"), report);
    assertTrue(report.contains("server: 401 rejected (SIGNATURE_MISMATCH)"), report);
    assertTrue(report.contains("server: 401 rejected (TIMESTAMP_OUT_OF_TOLERANCE)"), report);
    assertTrue(report.contains("ledger: v1 done, v3 done, v2 stale"), report);
    assertTrue(report.contains("ledger: dead after 3 attempts; last error: invoice in_demo_eur is in EUR;"
        + " this sample keeps balances in USD only"), report);
    assertTrue(report.contains("stopped before sending it"), report);
    assertTrue(report.contains("the receipt server got 1 request, Idempotency-Key "), report);
    assertTrue(report.contains("the receipt committed with the event arrived once after the restart, with the key it"
        + " was given at the commit"), report);
    assertEquals(Map.of("cus_ada", 4200L, "cus_grace", 1999L), result.state().balances());
  }
}
