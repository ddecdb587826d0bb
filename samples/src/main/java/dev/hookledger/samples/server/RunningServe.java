package dev.hookledger.samples.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;

/**
 * Where a running {@code serve} tells the operations commands how to reach its embedded database,
 * whose port is chosen at start: a file beside the data directory ({@code samples-db.url} next to
 * {@code samples-db}) holding its JDBC URL, removed when {@code serve} stops. The embedded server
 * only listens on the loopback interface and trusts local connections, so the URL holds no password.
 */
public final class RunningServe {
  private RunningServe() {}

  static Path urlFile(Path dataDirectory) {
    Path dir = dataDirectory.toAbsolutePath();
    return dir.resolveSibling(dir.getFileName() + ".url");
  }

  /** Records that a server on {@code dataDirectory} is reachable at {@code jdbcUrl}. */
  static void publish(Path dataDirectory, String jdbcUrl) {
    try {
      Files.writeString(urlFile(dataDirectory), jdbcUrl + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + urlFile(dataDirectory), e);
    }
  }

  /** Removes what {@link #publish} wrote. */
  static void withdraw(Path dataDirectory) {
    try {
      Files.deleteIfExists(urlFile(dataDirectory));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + urlFile(dataDirectory), e);
    }
  }

  /** The JDBC URL of a server running on {@code dataDirectory}, if one answers. */
  public static Optional<String> find(Path dataDirectory) {
    Path file = urlFile(dataDirectory);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      String url = Files.readString(file, StandardCharsets.UTF_8).strip();
      Properties props = new Properties();
      props.setProperty("connectTimeout", "2");
      DriverManager.getConnection(url, props).close();
      return Optional.of(url);
    } catch (IOException | SQLException e) {
      return Optional.empty(); // left behind by a serve that did not stop cleanly
    }
  }
}
