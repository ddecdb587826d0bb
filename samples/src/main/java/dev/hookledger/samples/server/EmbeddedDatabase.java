package dev.hookledger.samples.server;

import static java.util.Objects.requireNonNull;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded PostgreSQL 17 server (zonky's binaries), so that the samples need nothing installed
 * but Java. Listens on a free port on the loopback interface only.
 *
 * <p>zonky turns {@code fsync} and {@code synchronous_commit} off by default, which is fine for
 * throw-away test databases and wrong for anything that claims an acknowledged webhook is safe: a
 * crash would lose commits the provider was already told about. Durable servers turn both back on,
 * with {@code full_page_writes}.
 */
public final class EmbeddedDatabase implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);

  /** zonky's lock file in the data directory, held while its server runs. */
  private static final String LOCK_FILE = "epg-lock";
  /** Starts before giving up when other processes keep taking the port picked for ours. */
  private static final int START_ATTEMPTS = 5;
  /** A system property naming libraries for {@code shared_preload_libraries} of a durable server (profiling). */
  static final String PRELOAD_PROPERTY = "hookledger.embedded.preload";
  private static final IntSupplier FREE_PORT = () -> 0;
  /** Data directories this JVM's servers use. */
  private static final Set<Path> IN_USE = ConcurrentHashMap.newKeySet();

  private final EmbeddedPostgres postgres;
  private final Path dataDirectory;

  private EmbeddedDatabase(EmbeddedPostgres postgres, Path dataDirectory) {
    this.postgres = postgres;
    this.dataDirectory = dataDirectory;
  }

  /**
   * A durable server whose data lives in {@code dataDirectory} and survives restarts and crashes;
   * the directory is created (with {@code initdb}) on first use and reused afterwards.
   *
   * @throws IllegalStateException if another process is using the directory
   */
  public static EmbeddedDatabase persistent(Path dataDirectory) {
    Path dir = requireNonNull(dataDirectory, "dataDirectory").toAbsolutePath();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the data directory " + dir, e);
    }
    if (!IN_USE.add(dir)) {
      throw inUse(dir);
    }
    try {
      // only once no live process holds the directory may a postmaster found in it be an orphan
      if (heldByAnotherProcess(dir)) {
        throw inUse(dir);
      }
      OrphanedPostmaster.stopIfLeftIn(dir);
      return start(b -> durable(b).setCleanDataDirectory(false), dir, FREE_PORT);
    } catch (RuntimeException e) {
      IN_USE.remove(dir);
      throw e;
    }
  }

  /**
   * Whether another JVM holds zonky's lock file in {@code dir}. Probed with a lock of our own that
   * is released at once; never called for a directory this JVM uses (closing the probe's channel
   * would drop this process's other locks on the file: POSIX locks are per process).
   */
  private static boolean heldByAnotherProcess(Path dir) {
    if (!Files.exists(dir.resolve(LOCK_FILE))) {
      return false; // never started here; creating the file would make initdb refuse the directory
    }
    try (FileChannel ch = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.WRITE);
        FileLock lock = ch.tryLock()) {
      return lock == null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot probe " + dir.resolve(LOCK_FILE), e);
    }
  }

  private static IllegalStateException inUse(Path dir) {
    return new IllegalStateException(
        "the data directory " + dir + " is in use by another process (is another 'serve' running?)");
  }

  /** A server in a fresh temporary directory that is deleted on {@link #close()}. */
  public static EmbeddedDatabase temporary(boolean durable) {
    return temporary(durable, FREE_PORT);
  }

  /** As {@link #temporary(boolean)}, each start on the port {@code ports} gives (0: a free one). */
  static EmbeddedDatabase temporary(boolean durable, IntSupplier ports) {
    return start(b -> durable ? durable(b) : b, null, ports);
  }

  private static EmbeddedPostgres.Builder durable(EmbeddedPostgres.Builder b) {
    b.setServerConfig("fsync", "on")
        .setServerConfig("synchronous_commit", "on")
        .setServerConfig("full_page_writes", "on");
    // profiling a benchmark: -Dhookledger.embedded.preload=pg_stat_statements lets psql read the
    // statements' calls, times and blocks while the server runs (CREATE EXTENSION in any database)
    String preload = System.getProperty(PRELOAD_PROPERTY, "");
    return preload.isBlank() ? b : b.setServerConfig("shared_preload_libraries", preload);
  }

  /**
   * Starts a server in {@code dir} (a fresh temporary directory, deleted on close, when null) and
   * makes sure the server answering on its port is this one. zonky lets go of the free port it picked
   * and the postmaster binds it only after initdb; if another process took it in between (a second
   * {@code serve}, a test suite), our postmaster fails while zonky's readiness check is answered by
   * the other server, which we would then use until its owner stops it under us. Such a start is
   * stopped (by our own data directory, never the other's) and tried again on another port.
   */
  private static EmbeddedDatabase start(UnaryOperator<EmbeddedPostgres.Builder> settings, Path dir, IntSupplier ports) {
    String lost = null;
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      Path data = dir != null ? dir : temporaryDirectory();
      EmbeddedPostgres.Builder b = EmbeddedPostgres.builder().setDataDirectory(data);
      int port = ports.getAsInt();
      if (port != 0) {
        b.setPort(port);
      }
      // closed by whoever owns this object, in order after the server and the runtime; zonky's own
      // hook would stop PostgreSQL while the runtime is still draining its workers
      settings.apply(b).setRegisterShutdownHook(false).setPGStartupWait(Duration.ofSeconds(60));
      EmbeddedDatabase db;
      try {
        db = new EmbeddedDatabase(b.start(), dir);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
      }
      String answering = db.answeringDataDirectory();
      if (isDirectory(answering, data)) {
        return db;
      }
      lost = "port " + db.port() + " is answered by another PostgreSQL (data directory " + answering + "), not the one"
          + " started in " + data;
      LOG.warn("{}: starting again on another port", lost);
      try {
        db.postgres.close(); // pg_ctl stop on our own data directory: the other server is left alone
      } catch (IOException e) {
        LOG.warn("could not stop the embedded PostgreSQL that lost its port: {}", e.toString());
      }
    }
    throw new IllegalStateException(lost + "; gave up after " + START_ATTEMPTS + " starts");
  }

  private static Path temporaryDirectory() {
    try {
      return Files.createTempDirectory("epg");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a data directory for the embedded PostgreSQL", e);
    }
  }

  /** The data directory of the server that answers on this one's port. */
  private String answeringDataDirectory() {
    try (Connection c = dataSource().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW data_directory")) {
      r.next();
      return r.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot ask the PostgreSQL on port " + port() + " for its data directory", e);
    }
  }

  private static boolean isDirectory(String path, Path dir) {
    try {
      return Files.isSameFile(Path.of(path), dir);
    } catch (IOException e) {
      return false; // a directory we cannot see is not ours
    }
  }

  /** The {@code postgres} database as superuser; unpooled. */
  public DataSource dataSource() {
    return postgres.getPostgresDatabase();
  }

  /** A JDBC URL of the {@code postgres} database, for the operations commands. */
  public String jdbcUrl() {
    return postgres.getJdbcUrl("postgres", "postgres");
  }

  /** A JDBC URL of the database {@code database} on this server, as superuser. */
  public String jdbcUrl(String database) {
    return postgres.getJdbcUrl("postgres", database);
  }

  public int port() {
    return postgres.getPort();
  }

  /** Where the data lives, for a persistent server; null for a temporary one. */
  public Path dataDirectory() {
    return dataDirectory;
  }

  /** Stops PostgreSQL (a fast, clean shutdown); a temporary server's directory is deleted. */
  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      LOG.warn("could not stop the embedded PostgreSQL cleanly: {}", e.toString());
    } finally {
      if (dataDirectory != null) {
        IN_USE.remove(dataDirectory);
      }
    }
  }
}
