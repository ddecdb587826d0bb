package dev.hookledger.spi.replay;

import java.net.http.HttpHeaders;
import java.util.Optional;

/**
 * One answer from a provider's API, as {@link ProviderApiClient} returns it.
 *
 * @param status the HTTP status
 * @param headers the response headers (case-insensitive)
 * @param body the body bytes, never null
 */
public record ApiResponse(int status, HttpHeaders headers, byte[] body) {

  /** The first value of a response header. */
  public Optional<String> header(String name) {
    return headers.firstValue(name).map(String::trim);
  }

  boolean succeeded() {
    return status >= 200 && status < 300;
  }
}
