package dev.hookledger.runtime.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/** A JDBC URL given on the command line: turned into a data source, and shown only masked. */
final class DatabaseUrl {
  private static final Pattern PASSWORD_PARAM = Pattern.compile("(?i)([?&;]password=)([^&;]*)");
  private static final Pattern USER_INFO = Pattern.compile("(//[^/:@?]*:)([^@/?]*)(@)");

  private final String url;

  DatabaseUrl(String url) {
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("the database URL must start with jdbc:postgresql://, but was " + mask(url));
    }
    this.url = url;
  }

  DataSource dataSource() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    try {
      ds.setUrl(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the database URL is not valid: " + mask(url));
    }
    if (!url.contains("connectTimeout=")) {
      ds.setConnectTimeout(10);
    }
    ds.setApplicationName("hookledger-cli");
    return ds;
  }

  /** The URL with its password, as a parameter or in user info, replaced by {@code ****}. */
  String masked() {
    return mask(url);
  }

  /** Removes this URL's password from any text (a driver message may quote it). */
  String scrub(String text) {
    if (text == null) {
      return null;
    }
    String out = text.replace(url, masked());
    String password = password();
    return password == null || password.isEmpty() ? out : out.replace(password, "****");
  }

  private String password() {
    Matcher m = PASSWORD_PARAM.matcher(url);
    if (m.find()) {
      return m.group(2);
    }
    Matcher u = USER_INFO.matcher(url);
    return u.find() ? u.group(2) : null;
  }

  static String mask(String url) {
    String out = PASSWORD_PARAM.matcher(url).replaceAll("$1****");
    return USER_INFO.matcher(out).replaceAll("$1****$3");
  }
}
