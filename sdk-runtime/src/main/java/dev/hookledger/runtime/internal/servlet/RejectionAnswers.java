package dev.hookledger.runtime.internal.servlet;

import dev.hookledger.RejectionReason;

/**
 * What a caller is told of a failed signature check: which check failed, in one fixed sentence.
 * Never how many secrets are configured, their ids, the tolerance or a tenant's secrets: those
 * describe the configuration, and the caller may be anyone.
 */
final class RejectionAnswers {
  private RejectionAnswers() {}

  static String of(RejectionReason reason) {
    return switch (reason) {
      case SIGNATURE_MISSING -> "the delivery carries no signature";
      case SIGNATURE_MALFORMED -> "the signature is not in the provider's format";
      case SIGNATURE_MISMATCH -> "the signature does not match the body";
      case TIMESTAMP_OUT_OF_TOLERANCE -> "the signed timestamp is too far from now";
      case NO_SECRET_CONFIGURED -> "the delivery cannot be verified here";
      case MALFORMED, TOO_LARGE -> reason.name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
