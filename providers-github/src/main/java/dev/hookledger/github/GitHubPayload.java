package dev.hookledger.github;

import dev.hookledger.HttpHeaders;
import dev.hookledger.spi.Rejections;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The JSON document inside a verified GitHub body: the body itself for {@code application/json}
 * webhooks, the URL-decoded {@code payload} field for {@code application/x-www-form-urlencoded}
 * ones. The HMAC always covers the body as sent, so this runs only after it holds.
 */
final class GitHubPayload {
  static final String FORM = "application/x-www-form-urlencoded";
  private static final String FIELD = "payload=";

  private GitHubPayload() {}

  /** Whether the delivery is form-encoded, by its {@code Content-Type}. */
  static boolean isForm(HttpHeaders headers) {
    return headers.first("Content-Type")
        .map(t -> t.trim().toLowerCase(Locale.ROOT).startsWith(FORM))
        .orElse(false);
  }

  /**
   * The JSON bytes of a form-encoded body.
   *
   * @throws dev.hookledger.DeliveryRejectedException {@code MALFORMED} without a {@code payload}
   *     field or with a broken percent-escape
   */
  static byte[] fromForm(byte[] body) {
    // percent-encoded text is ASCII; reading as UTF-8 also keeps any raw UTF-8 a sender left unencoded
    String form = new String(body, StandardCharsets.UTF_8);
    for (String pair : form.split("&")) {
      if (pair.startsWith(FIELD)) {
        try {
          return URLDecoder.decode(pair.substring(FIELD.length()), StandardCharsets.UTF_8)
              .getBytes(StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
          throw Rejections.malformed("the 'payload' field of the form-encoded GitHub body has a broken percent-escape");
        }
      }
    }
    throw Rejections.malformed("the form-encoded GitHub body has no 'payload' field");
  }
}
