package dev.hookledger.runtime.internal;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds and masks the password in a JDBC URL (a {@code password} parameter or user info), before the
 * URL reaches a message or a log. The runtime's builder and the command line share it.
 */
public final class JdbcUrls {
  private static final Pattern PASSWORD_PARAM = Pattern.compile("(?i)([?&;]password=)([^&;]*)");
  private static final Pattern USER_INFO = Pattern.compile("(//[^/:@?]*:)([^@/?]*)(@)");

  private JdbcUrls() {}

  /** {@code url} with every password replaced by {@code ****}. */
  public static String mask(String url) {
    String out = PASSWORD_PARAM.matcher(url).replaceAll("$1****");
    return USER_INFO.matcher(out).replaceAll("$1****$3");
  }

  /** The password the URL holds, as a parameter or in user info. */
  public static Optional<String> password(String url) {
    Matcher m = PASSWORD_PARAM.matcher(url);
    if (m.find()) {
      return Optional.of(m.group(2));
    }
    Matcher u = USER_INFO.matcher(url);
    return u.find() ? Optional.of(u.group(2)) : Optional.empty();
  }
}
