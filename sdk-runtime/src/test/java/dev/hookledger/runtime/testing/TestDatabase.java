package dev.hookledger.runtime.testing;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A real PostgreSQL for tests: the server named by {@code HOOKLEDGER_TEST_DATABASE_URL}
 * ({@code jdbc:postgresql://host:port/db?user=..&password=..}, whose user may create databases), or
 * else one embedded PostgreSQL 17 per JVM, started on first use. Each {@link #create()} makes a
 * fresh, empty database on it, so test classes never see each other's rows.
 *
 * <p>Tests that stop the server (database-down tests) use {@link #startDedicated(boolean)}, never
 * the shared one.
 *
 * <p>With the system property {@value #CITUS} set to {@code true} (the {@code citus} Maven profile
 * sets it), the server named by {@code HOOKLEDGER_TEST_DATABASE_URL} (else the system property
 * {@value #CITUS_URL}) must be a Citus coordinator: each database made here gets the extension, so that
 * {@code migrate()} distributes the ledger in it. Its shards go to the workers named by
 * {@code HOOKLEDGER_TEST_CITUS_WORKERS} (else the system property {@value #CITUS_WORKERS}), {@code
 * host:port,host:port}, where each database is made too; with none, the coordinator is the one node
 * holding shards. {@code src/test/citus/citus-cluster.sh} starts such a cluster.
 */
public final class TestDatabase {
  private static final String ENV = "HOOKLEDGER_TEST_DATABASE_URL";
  private static final String WORKERS_ENV = "HOOKLEDGER_TEST_CITUS_WORKERS";
  /** The system property that says the test server is a Citus coordinator. */
  public static final String CITUS = "hookledger.test.citus";
  /** The coordinator's JDBC URL when {@code HOOKLEDGER_TEST_DATABASE_URL} is not set. */
  public static final String CITUS_URL = "hookledger.test.citus.url";
  /** The Citus workers ({@code host:port,...}) when {@code HOOKLEDGER_TEST_CITUS_WORKERS} is not set; empty for one node. */
  public static final String CITUS_WORKERS = "hookledger.test.citus.workers";
  /** The advisory lock, on the coordinator's admin database, under which a test JVM adds Citus's workers. */
  private static final long ADD_NODE_LOCK = 0x686c_6369_7475_73L; // "hlcitus"
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static volatile PGSimpleDataSource admin;
  private static EmbeddedPostgres shared;
  /** The databases made on the embedded server and not yet dropped; guarded by the class. */
  private static final List<String> MADE = new ArrayList<>();
  /** Drops them in the background, so that the next test class need not wait for the files to go. */
  private static final ExecutorService DROPPER = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "hl-test-drop-finished");
    t.setDaemon(true);
    return t;
  });

  private TestDatabase() {}

  /** A fresh, empty database on the shared test server. */
  public static Database create() {
    Database db = createWithoutCitus();
    if (citus()) {
      addCitus(db);
    }
    return db;
  }

  /** As {@link #create()}, without the citus extension even on a Citus coordinator: as a ledger made before it was installed. */
  public static Database createWithoutCitus() {
    PGSimpleDataSource root = admin();
    String name = "hl_test_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
    try (Connection c = root.getConnection(); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create test database " + name, e);
    }
    synchronized (TestDatabase.class) {
      MADE.add(name);
    }
    return new Database(on(root, name));
  }

  /**
   * Drops, in the background, every database made so far (on the embedded server or the one named by
   * {@code HOOKLEDGER_TEST_DATABASE_URL}, and on a Citus cluster's workers), when the test class
   * that made them has finished ({@link DropFinishedDatabases}): kept to the end, the server's shutdown
   * hook deletes them file by file as the JVM exits, for longer than surefire waits for a fork to exit on
   * a loaded machine. {@code WITH (FORCE)} ends what a runtime the class left open or a child process
   * still holds. Best effort: a database not dropped goes with the embedded server's data directory, or
   * at the JVM's exit from a server named by the environment ({@link #dropOwnDatabases}).
   */
  static void dropMadeSoFar() {
    List<String> names;
    synchronized (TestDatabase.class) {
      if (MADE.isEmpty()) {
        return;
      }
      names = List.copyOf(MADE);
      MADE.clear();
    }
    PGSimpleDataSource root = admin();
    List<PGSimpleDataSource> workers = citus() ? workerAdmins() : List.of();
    DROPPER.execute(() -> {
      try {
        drop(root, names);
      } catch (SQLException e) {
        // left to the server's data directory: after the last class this races the JVM's exit, whose hook
        // stops the server under the drop ("terminating connection due to administrator command"); on a
        // server named by the environment, to the JVM's exit hook (dropOwnDatabases)
      }
      // a Citus worker's database of the same name, each of which holds a maintenance worker of its own
      for (PGSimpleDataSource worker : workers) {
        try {
          drop(worker, names);
        } catch (SQLException e) {
          // left to the JVM's exit hook
        }
      }
    });
  }

  /**
   * Installs the citus extension in {@code db} on the Citus coordinator the tests run on ({@link #citus()}),
   * with the shards on the {@linkplain #citusWorkers() workers}, or on the coordinator where there are none.
   */
  public static void addCitus(Database db) {
    // Citus keeps its nodes per database: each worker gets a database of the same name, with the extension
    PGSimpleDataSource root = admin();
    String name = ((PGSimpleDataSource) db.dataSource()).getDatabaseName();
    List<PGSimpleDataSource> workers = workerAdmins();
    for (PGSimpleDataSource worker : workers) {
      execute(worker, "CREATE DATABASE " + name);
      execute(on(worker, name), "CREATE EXTENSION citus");
    }
    db.execute("CREATE EXTENSION citus");
    String node = "'" + root.getServerNames()[0] + "', " + root.getPortNumbers()[0];
    db.execute("SELECT citus_set_coordinator_host(" + node + ")");
    if (workers.isEmpty()) {
      db.execute("SELECT citus_set_node_property(" + node + ", 'shouldhaveshards', true)");
    }
    // Two test JVMs adding the workers to their databases at once collide on a worker's shared catalogs
    // while Citus copies its metadata there ("tuple concurrently updated", then "failure on connection
    // marked as essential"): one at a time, under a lock on the coordinator's admin database, which every
    // test JVM reaches
    try (Connection lock = root.getConnection(); Statement s = lock.createStatement()) {
      s.execute("SELECT pg_advisory_lock(" + ADD_NODE_LOCK + ")");
      for (PGSimpleDataSource worker : workers) {
        db.execute("SELECT citus_add_node('" + worker.getServerNames()[0] + "', " + worker.getPortNumbers()[0] + ")");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot take the lock of Citus's node additions: " + e.getMessage(), e);
    }
  }

  /**
   * The Citus workers the tests run on, {@code host:port} each ({@code HOOKLEDGER_TEST_CITUS_WORKERS},
   * else {@value #CITUS_WORKERS}); empty off Citus or on one node.
   */
  public static List<String> citusWorkers() {
    if (!citus()) {
      return List.of();
    }
    String env = System.getenv(WORKERS_ENV);
    String workers = env != null ? env : System.getProperty(CITUS_WORKERS, "");
    return Arrays.stream(workers.split(",")).map(String::trim).filter(w -> !w.isEmpty()).toList();
  }

  private static List<PGSimpleDataSource> workerAdmins() {
    PGSimpleDataSource root = admin();
    List<PGSimpleDataSource> admins = new ArrayList<>();
    for (String worker : citusWorkers()) {
      int colon = worker.lastIndexOf(':');
      if (colon < 0) {
        throw new IllegalStateException(WORKERS_ENV + " must be host:port,..., but was " + worker);
      }
      PGSimpleDataSource ds = new PGSimpleDataSource();
      ds.setServerNames(new String[] {worker.substring(0, colon)});
      ds.setPortNumbers(new int[] {Integer.parseInt(worker.substring(colon + 1))});
      ds.setDatabaseName("postgres");
      ds.setUser(root.getUser());
      ds.setPassword(root.getPassword());
      admins.add(ds);
    }
    return admins;
  }

  private static PGSimpleDataSource on(PGSimpleDataSource server, String database) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setServerNames(server.getServerNames());
    ds.setPortNumbers(server.getPortNumbers());
    ds.setDatabaseName(database);
    ds.setUser(server.getUser());
    ds.setPassword(server.getPassword());
    return ds;
  }

  private static void execute(PGSimpleDataSource ds, String sql) {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("Citus worker SQL failed: " + sql + ": " + e.getMessage(), e);
    }
  }

  /**
   * Whether the tests run on the embedded PostgreSQL 17 this build starts, not on a server named by
   * {@code HOOKLEDGER_TEST_DATABASE_URL} (of whatever version) nor on Citus.
   */
  public static boolean embedded() {
    return namedServer() == null && !citus();
  }

  /** The server named by {@code HOOKLEDGER_TEST_DATABASE_URL}, or on Citus by {@value #CITUS_URL}; null if none. */
  private static String namedServer() {
    String url = System.getenv(ENV);
    if ((url == null || url.isBlank()) && citus()) {
      url = System.getProperty(CITUS_URL);
    }
    return url == null || url.isBlank() ? null : url;
  }

  /** Whether the tests run on a Citus coordinator ({@value #CITUS}). */
  public static boolean citus() {
    return Boolean.getBoolean(CITUS);
  }

  /**
   * A separate embedded server that the caller owns and may stop and start. {@code durable} turns
   * {@code fsync} and {@code synchronous_commit} back on, which zonky turns off by default: crash
   * tests need commits that survive.
   */
  public static EmbeddedPostgres startDedicated(boolean durable) {
    return EmbeddedServer.start(settings(durable), null, 0);
  }

  /**
   * A separate embedded server whose data lives in {@code dataDirectory} and outlives
   * {@link EmbeddedPostgres#close() close()}: starting it again with the same directory and port
   * brings the same databases back, as after a database outage. {@code port} 0 picks a free one.
   *
   * @throws IllegalStateException if another server answers on {@code port}
   */
  public static EmbeddedPostgres startDedicated(boolean durable, Path dataDirectory, int port) {
    return EmbeddedServer.start(settings(durable), requireNonNull(dataDirectory, "dataDirectory"), port);
  }

  private static UnaryOperator<EmbeddedPostgres.Builder> settings(boolean durable) {
    if (!durable) {
      return b -> b;
    }
    return b -> b.setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on")
        .setServerConfig("full_page_writes", "on");
  }

  private static PGSimpleDataSource admin() {
    PGSimpleDataSource a = admin;
    if (a != null) {
      return a;
    }
    synchronized (TestDatabase.class) {
      if (admin == null) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        String url = namedServer();
        if (url != null) {
          ds.setUrl(url);
          Runtime.getRuntime().addShutdownHook(new Thread(() -> dropOwnDatabases(ds), "hl-test-drop-databases"));
        } else if (citus()) {
          throw new IllegalStateException(CITUS + "=true needs " + ENV + " naming a Citus coordinator");
        } else {
          shared = startDedicated(false);
          ds.setServerNames(new String[] {"localhost"});
          ds.setPortNumbers(new int[] {shared.getPort()});
          ds.setDatabaseName("postgres");
          ds.setUser("postgres");
        }
        admin = ds;
      }
      return admin;
    }
  }

  /** Drops each of {@code names} on {@code server}, ending what still holds it ({@code WITH (FORCE)}). */
  private static void drop(PGSimpleDataSource server, List<String> names) throws SQLException {
    try (Connection c = server.getConnection(); Statement s = c.createStatement()) {
      for (String name : names) {
        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      }
    }
  }

  /**
   * Drops the databases this JVM made on a server the tests do not own ({@code HOOKLEDGER_TEST_DATABASE_URL}),
   * when the JVM exits: a run left hundreds of them behind on a Citus coordinator, each costing it a
   * maintenance worker. {@code WITH (FORCE)} ends what a child process left connected. Best effort: a
   * failure is printed, the run's result stands. The embedded server goes away with its JVM.
   */
  private static void dropOwnDatabases(PGSimpleDataSource root) {
    String prefix = "hl\\_test\\_" + ProcessHandle.current().pid() + "\\_%";
    try (Connection c = root.getConnection(); Statement s = c.createStatement()) {
      List<String> names = new ArrayList<>();
      try (java.sql.ResultSet r = s.executeQuery("SELECT datname FROM pg_database WHERE datname LIKE '" + prefix + "'")) {
        while (r.next()) {
          names.add(r.getString(1));
        }
      }
      drop(root, names);
      for (PGSimpleDataSource worker : workerAdmins()) {
        drop(worker, names);
      }
    } catch (SQLException e) {
      System.err.println("TestDatabase: could not drop this run's test databases: " + e.getMessage());
    }
  }

  /**
   * One test database. Its {@link #pooled()} pool is closed by {@link #close()}; a test that never
   * closes it leaves only a few idle sessions, which the pool ends itself once idle for
   * {@value #POOL_IDLE_MILLIS} ms (checked every 30 s).
   */
  public static final class Database implements AutoCloseable {
    /** Opened on demand only; as many as a test's concurrent writers, each of which may nest a second. */
    private static final int POOL_SIZE = 10;
    private static final long POOL_IDLE_MILLIS = 10_000; // HikariCP's least
    /** One housekeeping thread for every test pool in the JVM, rather than one per database. */
    private static final ScheduledExecutorService HOUSEKEEPING = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "hl-test-pool-housekeeping");
      t.setDaemon(true);
      return t;
    });
    private final PGSimpleDataSource dataSource;
    private HikariDataSource pool;

    Database(PGSimpleDataSource dataSource) {
      this.dataSource = dataSource;
    }

    /**
     * An unpooled data source: each connection is a new PostgreSQL session, which tests that count
     * sessions or hand the runtime its connections need. Wrap it in a pool where the test needs one.
     */
    public DataSource dataSource() {
      return dataSource;
    }

    /**
     * The data source a test gives its runtime and admin: {@link #dataSource()}, but {@link #pooled()} on
     * a Citus coordinator, where a new session's first statements across shards also open the
     * coordinator's connections to the workers, whose new sessions parse each shard's statement cold: an
     * operator read on a new session each time missed the admin's 2 s deadline there, as an
     * application's pool does not.
     */
    public DataSource forRuntime() {
      return citus() ? pooled() : dataSource;
    }

    /**
     * A small pool on this database (up to {@value #POOL_SIZE} sessions, opened on demand), for
     * fixtures that run many statements: a new session costs PostgreSQL a process, more than most
     * fixture statements. Sessions are reused, so a session-level {@code SET} outlives its statement.
     */
    public synchronized DataSource pooled() {
      if (pool == null) {
        PGSimpleDataSource sessions = new PGSimpleDataSource();
        sessions.setURL(dataSource.getURL());
        sessions.setUser(dataSource.getUser());
        sessions.setPassword(dataSource.getPassword());
        // no server-side prepared statements, as when each statement had a session of its own: a plan
        // cached in a reused session would fail ("cached plan must not change result type") once a test
        // alters the tables it reads
        sessions.setPrepareThreshold(0);
        HikariConfig c = new HikariConfig();
        c.setDataSource(sessions);
        c.setPoolName("hl-test-" + dataSource.getDatabaseName());
        c.setMaximumPoolSize(POOL_SIZE);
        c.setMinimumIdle(0);
        c.setIdleTimeout(POOL_IDLE_MILLIS);
        c.setScheduledExecutor(HOUSEKEEPING);
        pool = new HikariDataSource(c);
      }
      return pool;
    }

    /** Closes the {@link #pooled()} pool, if one was made; the database stays. */
    @Override
    public synchronized void close() {
      if (pool != null) {
        pool.close();
        pool = null;
      }
    }

    /** A JDBC URL with user and password, as a CLI or a second process would take it. */
    public String jdbcUrl() {
      String url = "jdbc:postgresql://" + dataSource.getServerNames()[0] + ":"
          + dataSource.getPortNumbers()[0] + "/" + dataSource.getDatabaseName()
          + "?user=" + dataSource.getUser();
      return dataSource.getPassword() == null ? url : url + "&password=" + dataSource.getPassword();
    }

    /** Runs SQL statements, for fixtures. */
    public void execute(String sql) {
      try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
        s.execute(sql);
      } catch (SQLException e) {
        throw new IllegalStateException("fixture SQL failed: " + e.getMessage(), e);
      }
    }
  }
}
