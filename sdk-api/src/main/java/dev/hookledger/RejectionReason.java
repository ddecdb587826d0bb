package dev.hookledger;

/**
 * Why a delivery was refused at the door, before anything was stored.
 *
 * <p>Each reason maps to the HTTP status the servlet filter answers with. Rejections caused by the
 * signature answer 401, which Shopify requires and which Stripe and GitHub treat as an ordinary
 * failure (Stripe and Shopify retry it).
 */
public enum RejectionReason {
  /** The signature header (or, for timestamped schemes, its timestamp) is absent. */
  SIGNATURE_MISSING(401),
  /** A signature header is present but is not of the expected form (unknown scheme, bad hex or base64). */
  SIGNATURE_MALFORMED(401),
  /** The signature is well formed but matches no configured secret. */
  SIGNATURE_MISMATCH(401),
  /** The signed timestamp is too old or too far in the future. */
  TIMESTAMP_OUT_OF_TOLERANCE(401),
  /** No secret is configured for this provider (or tenant), so nothing can be verified. */
  NO_SECRET_CONFIGURED(401),
  /** The signature holds but the delivery lacks something the provider always sends, or is not valid JSON. */
  MALFORMED(400),
  /** The body is larger than the provider's limit. */
  TOO_LARGE(413);

  private final int httpStatus;

  RejectionReason(int httpStatus) {
    this.httpStatus = httpStatus;
  }

  /** The HTTP status the filter answers with for this reason. */
  public int httpStatus() {
    return httpStatus;
  }
}
