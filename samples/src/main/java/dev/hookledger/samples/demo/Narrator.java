package dev.hookledger.samples.demo;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints the demo's narrated report, one numbered step at a time, and remembers every check that
 * failed for the verdict.
 */
final class Narrator {
  private static final String INDENT = "     ";

  private final PrintStream out;
  private final List<String> failed = new ArrayList<>();
  private int step;

  Narrator(PrintStream out) {
    this.out = out;
  }

  void title(String text) {
    out.println(text);
  }

  void blank() {
    out.println();
  }

  /** Starts the next numbered step. */
  void step(String title) {
    out.println();
    out.printf("%2d. %s%n", ++step, title);
  }

  /** One line of the current step: {@code sent}, {@code server}, {@code ledger}. */
  void say(String label, String text) {
    out.printf("%s%-7s %s%n", INDENT, label + ":", text);
  }

  /** Records and prints whether {@code what} held. */
  boolean check(boolean ok, String what) {
    say("check", (ok ? "ok    " : "FAILED ") + what);
    if (!ok) {
      failed.add("step " + step + ": " + what);
    }
    return ok;
  }

  /** The checks that did not hold, as {@code step N: what}. */
  List<String> failedChecks() {
    return List.copyOf(failed);
  }

  PrintStream out() {
    return out;
  }
}
