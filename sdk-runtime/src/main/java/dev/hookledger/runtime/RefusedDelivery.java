package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One delivery the webhook door refused, as kept in memory by the node that refused it. Holds no
 * body and no secret: the values of headers that may carry a signature, token or key are
 * {@link #HIDDEN}, and every name and value is cut short and freed of control characters. Immutable.
 *
 * @param at when it was refused, by the runtime's clock
 * @param provider the provider of the path, or {@link RefusedDeliveries#UNKNOWN_PROVIDER}
 * @param reason why
 * @param remoteAddress the peer's address as the container saw it (a proxy's, behind one); empty if unknown
 * @param path the request path, cut short
 * @param headers the request's header names and their values (or {@link #HIDDEN}), in request order
 */
public record RefusedDelivery(Instant at, String provider, RefusalReason reason, String remoteAddress, String path,
    Map<String, String> headers) {
  /** The value shown for a header that may carry a secret. */
  public static final String HIDDEN = "(hidden)";

  public RefusedDelivery {
    requireNonNull(at, "at");
    requireNonNull(provider, "provider");
    requireNonNull(reason, "reason");
    requireNonNull(remoteAddress, "remoteAddress");
    requireNonNull(path, "path");
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }
}
