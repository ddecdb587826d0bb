package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.internal.JdbcUrls;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/** A JDBC URL given on the command line: turned into a data source, and shown only masked. */
final class DatabaseUrl {
  private final String url;

  DatabaseUrl(String url) {
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("the database URL must start with jdbc:postgresql://, but was " + JdbcUrls.mask(url));
    }
    this.url = url;
  }

  DataSource dataSource() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    try {
      ds.setUrl(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the database URL is not valid: " + JdbcUrls.mask(url));
    }
    if (!url.contains("connectTimeout=")) {
      ds.setConnectTimeout(10);
    }
    ds.setApplicationName("hookledger-cli");
    return ds;
  }

  /** The URL with its password, as a parameter or in user info, replaced by {@code ****}. */
  String masked() {
    return JdbcUrls.mask(url);
  }

  /** Removes this URL's password from any text (a driver message may quote it). */
  String scrub(String text) {
    if (text == null) {
      return null;
    }
    String out = text.replace(url, masked());
    return JdbcUrls.password(url).filter(p -> !p.isEmpty()).map(p -> out.replace(p, "****")).orElse(out);
  }
}
