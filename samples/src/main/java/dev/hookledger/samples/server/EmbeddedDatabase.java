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
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
      return start(durable(EmbeddedPostgres.builder()).setDataDirectory(dir)
          .setCleanDataDirectory(false), dir);
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
    EmbeddedPostgres.Builder b = EmbeddedPostgres.builder();
    return start(durable ? durable(b) : b, null);
  }

  private static EmbeddedPostgres.Builder durable(EmbeddedPostgres.Builder b) {
    return b.setServerConfig("fsync", "on")
        .setServerConfig("synchronous_commit", "on")
        .setServerConfig("full_page_writes", "on");
  }

  private static EmbeddedDatabase start(EmbeddedPostgres.Builder b, Path dir) {
    // closed by whoever owns this object, in order after the server and the runtime; zonky's own
    // hook would stop PostgreSQL while the runtime is still draining its workers
    b.setRegisterShutdownHook(false).setPGStartupWait(Duration.ofSeconds(60));
    try {
      return new EmbeddedDatabase(b.start(), dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
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
