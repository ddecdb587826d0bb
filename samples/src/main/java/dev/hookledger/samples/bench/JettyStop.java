package dev.hookledger.samples.bench;

import org.eclipse.jetty.server.Server;

/**
 * Stops a hand-written peer's Jetty from a {@code close()} that throws nothing checked, so that
 * try-with-resources around the peer need not handle an {@code InterruptedException}.
 */
final class JettyStop {
  private JettyStop() {}

  static void stop(Server jetty) {
    try {
      jetty.stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping Jetty", e);
    } catch (Exception e) {
      throw new IllegalStateException("Jetty did not stop", e);
    }
  }
}
