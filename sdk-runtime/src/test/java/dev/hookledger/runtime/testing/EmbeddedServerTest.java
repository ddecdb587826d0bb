package dev.hookledger.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another process binding the port zonky picked before our postmaster does: the other server answers
 * zonky's readiness check, and must not be taken for ours (its owner's exit would stop it under us:
 * "the database system is shutting down").
 */
class EmbeddedServerTest {
  private static EmbeddedPostgres other;
  private static String otherDirectory;
  /** Ours, for the fixed-port start. */
  @TempDir static Path data;

  @BeforeAll
  static void anotherJvmsServer() {
    other = TestDatabase.startDedicated(false);
    otherDirectory = dataDirectory(other);
  }

  @AfterAll
  static void stopIt() throws Exception {
    other.close();
  }

  @Test
  void aFixedPortThatAnotherServerAnswersOnIsRefusedNamingBothDirectories() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> TestDatabase.startDedicated(false, data, other.getPort()));
    assertEquals("port " + other.getPort() + " answers for another PostgreSQL (data directory " + otherDirectory
        + "), not the one started in " + data, e.getMessage());
    assertEquals(otherDirectory, dataDirectory(other), "giving up our start left the other server running");
  }

  @Test
  void aStartWhosePortWasTakenIsTriedAgainOnAFreeOne() throws Exception {
    AtomicInteger starts = new AtomicInteger();
    // a fresh data directory per start, as TestDatabase starts its servers (null): reusing the one a
    // failed postmaster left once kept the second start from answering within its wait
    try (EmbeddedPostgres ours = EmbeddedServer.start(b -> b, null,
        () -> starts.getAndIncrement() == 0 ? other.getPort() : 0, EmbeddedServer.ATTEMPTS)) {
      assertEquals(2, starts.get(), "the first start lost its port to the other server, the second did not");
      assertNotEquals(other.getPort(), ours.getPort());
      assertNotEquals(otherDirectory, dataDirectory(ours));
    }
    assertEquals(otherDirectory, dataDirectory(other), "giving up our first start left the other server running");
  }

  private static String dataDirectory(EmbeddedPostgres server) {
    return String.valueOf(LedgerRows.first(server.getPostgresDatabase(), "SELECT current_setting('data_directory') AS d")
        .orElseThrow().get("d"));
  }
}
