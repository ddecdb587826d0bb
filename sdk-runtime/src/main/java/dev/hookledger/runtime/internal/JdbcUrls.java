package dev.hookledger.runtime.internal;

import java.util.regex.Pattern;

/** Masks credentials in JDBC URLs before they reach a message or a log. */
public final class JdbcUrls {
  private static final Pattern PASSWORD = Pattern.compile("(?i)(password=)[^&;]*");
  private static final Pattern USER_INFO = Pattern.compile("(//[^/:@]*:)[^/@]*@");

  private JdbcUrls() {}

  /** {@code url} with every password replaced by {@code ***}. */
  public static String mask(String url) {
    String masked = PASSWORD.matcher(url).replaceAll("$1***");
    return USER_INFO.matcher(masked).replaceAll("$1***@");
  }
}
