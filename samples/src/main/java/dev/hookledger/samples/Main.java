package dev.hookledger.samples;

/** Entry point of {@code hookledger-samples.jar}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.out.println("hookledger samples: not built yet");
  }
}
