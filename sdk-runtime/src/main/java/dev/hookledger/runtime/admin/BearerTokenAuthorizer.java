package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.internal.UnusableSecrets;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;

/** {@link AdminAuthorizer#bearerToken}: one token, as a Bearer token or a Basic password. */
final class BearerTokenAuthorizer implements AdminAuthorizer {
  static final int MIN_LENGTH = 16;
  private static final List<String> CHALLENGES = List.of("Bearer realm=\"hookledger admin\"",
      "Basic realm=\"hookledger admin\", charset=\"UTF-8\"");

  private final byte[] expected;

  BearerTokenAuthorizer(String token) {
    requireNonNull(token, "token");
    String t = token.strip();
    if (t.length() < MIN_LENGTH) {
      throw new IllegalArgumentException("admin token must be at least " + MIN_LENGTH + " characters, but was "
          + t.length());
    }
    // a placeholder such as ${HOOKLEDGER_ADMIN_TOKEN} is long enough, and anyone can read it
    UnusableSecrets.refuse("admin token", t, MIN_LENGTH);
    this.expected = digest(t);
  }

  @Override
  public boolean permits(HttpServletRequest request) {
    String given = presented(request.getHeader("Authorization"));
    // equal-length digests compared in constant time: neither the token nor its length leaks by timing
    return given != null && MessageDigest.isEqual(expected, digest(given));
  }

  @Override
  public List<String> challenges() {
    return CHALLENGES;
  }

  @Override
  public String toString() {
    return "AdminAuthorizer.bearerToken(****)";
  }

  /** The token of {@code Bearer <token>}, or the password of {@code Basic base64(user:password)}; else null. */
  static String presented(String authorization) {
    if (authorization == null) {
      return null;
    }
    String value = authorization.strip();
    if (value.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return value.substring(7).strip();
    }
    if (value.regionMatches(true, 0, "Basic ", 0, 6)) {
      try {
        String pair = new String(Base64.getDecoder().decode(value.substring(6).strip()), StandardCharsets.UTF_8);
        int colon = pair.indexOf(':');
        return colon < 0 ? null : pair.substring(colon + 1);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return null;
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
