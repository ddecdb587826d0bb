package dev.hookledger.runtime.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;

/**
 * Starts an embedded PostgreSQL and proves that the server answering on its port is the one it
 * started.
 *
 * <p>zonky picks a port by binding port 0 and letting it go; the postmaster binds it only seconds
 * later, after {@code initdb}. Its readiness check then connects to the port and runs
 * {@code SELECT 1}. If another process bound the port in between (another test JVM starting its own
 * server, in this build or in another suite on the machine), our postmaster fails to start while the
 * check passes against the other server: the tests run on a server another JVM owns, and when that
 * JVM's shutdown hook stops it, they fail mid-run with "FATAL: the database system is shutting
 * down". So each server runs in a data directory known here, the answering server must report it as
 * its {@code data_directory}, and a server that does not is given up (zonky's stop names our own data
 * directory, never the other's) and started again on another port.
 */
final class EmbeddedServer {
  /** Starts before giving up; each lost race costs one start. */
  static final int ATTEMPTS = 5;
  /** zonky's default of 10 s is too short for initdb and a start on a loaded 2-core machine. */
  private static final Duration STARTUP_WAIT = Duration.ofSeconds(60);

  private EmbeddedServer() {}

  /**
   * A server in {@code dataDirectory} (a fresh temporary one when null, deleted on close) on
   * {@code port} (0: a free one, chosen again if another process takes it first).
   */
  static EmbeddedPostgres start(UnaryOperator<EmbeddedPostgres.Builder> settings, Path dataDirectory, int port) {
    // a port the caller fixed (a restart on the same port) has nothing else to try
    return start(settings, dataDirectory, () -> port, port == 0 ? ATTEMPTS : 1);
  }

  /** As above, each of up to {@code attempts} starts on the port {@code ports} gives (0: zonky's choice). */
  static EmbeddedPostgres start(UnaryOperator<EmbeddedPostgres.Builder> settings, Path dataDirectory, IntSupplier ports,
      int attempts) {
    IllegalStateException lost = null;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      int port = ports.getAsInt();
      Path dir = dataDirectory != null ? dataDirectory : temporaryDirectory();
      EmbeddedPostgres.Builder b = EmbeddedPostgres.builder().setDataDirectory(dir)
          .setCleanDataDirectory(dataDirectory == null).setPGStartupWait(STARTUP_WAIT);
      if (port != 0) {
        b.setPort(port);
      }
      EmbeddedPostgres server = startOrThrow(settings.apply(b));
      String answering = dataDirectoryOf(server);
      if (sameDirectory(answering, dir)) {
        return server;
      }
      lost = new IllegalStateException("port " + server.getPort() + " answers for another PostgreSQL (data directory "
          + answering + "), not the one started in " + dir);
      close(server);
    }
    throw lost;
  }

  private static EmbeddedPostgres startOrThrow(EmbeddedPostgres.Builder b) {
    try {
      return b.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
    }
  }

  private static Path temporaryDirectory() {
    try {
      return Files.createTempDirectory("epg");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a data directory for embedded PostgreSQL", e);
    }
  }

  private static String dataDirectoryOf(EmbeddedPostgres server) {
    try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW data_directory")) {
      r.next();
      return r.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot ask the server on port " + server.getPort() + " for its data directory", e);
    }
  }

  private static boolean sameDirectory(String answering, Path dir) {
    try {
      return Files.isSameFile(Path.of(answering), dir);
    } catch (IOException e) {
      return false; // the other server's directory is not one we can see, so not ours
    }
  }

  private static void close(EmbeddedPostgres server) {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stop embedded PostgreSQL", e);
    }
  }
}
