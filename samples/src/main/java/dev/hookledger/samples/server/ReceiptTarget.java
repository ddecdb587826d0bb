package dev.hookledger.samples.server;

import dev.hookledger.runtime.Destination;
import dev.hookledger.samples.app.Billing;
import java.net.URI;
import java.util.Locale;

/**
 * Where {@code serve --receipt-url URL} sends receipts: the URL's origin as the outbox destination
 * {@value Billing#RECEIPTS}, and its path (and query) as the path under it, so that an operator sees
 * and pauses the receipts by that name.
 */
record ReceiptTarget(Destination destination, String path) {
  /**
   * @throws IllegalArgumentException in one line, if {@code url} is not an absolute http or https URL
   */
  static ReceiptTarget of(URI url) {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!url.isAbsolute() || url.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
      throw new IllegalArgumentException("must be an absolute http or https URL, but was '" + url + "'");
    }
    URI origin = URI.create(scheme + "://" + url.getRawAuthority());
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    String query = url.getRawQuery() == null ? "" : "?" + url.getRawQuery();
    return new ReceiptTarget(Destination.named(Billing.RECEIPTS).url(origin), path + query);
  }
}
