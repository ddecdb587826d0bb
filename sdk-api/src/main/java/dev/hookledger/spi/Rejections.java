package dev.hookledger.spi;

import static java.util.Objects.requireNonNull;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import java.util.stream.Collectors;

/**
 * The rejections every adapter raises, with messages that say what to check. Using these keeps the
 * wording the same across providers and keeps secrets, signature values and bodies out of messages:
 * none of them takes one.
 *
 * <p>Values that come from the request (a tenant read from a header) are shown only after
 * {@link #printable(String) stripping control characters and truncating}, so that a message cannot
 * forge log lines.
 */
public final class Rejections {
  private static final int MAX_ECHO = 64;

  private Rejections() {}

  /**
   * {@link RejectionReason#SIGNATURE_MISSING}: {@code "<header> header is missing: <hint>"}.
   *
   * @param hint what the absence usually means for this provider
   */
  public static DeliveryRejectedException signatureMissing(String header, String hint) {
    return new DeliveryRejectedException(
        RejectionReason.SIGNATURE_MISSING, requireNonNull(header, "header") + " header is missing: " + hint);
  }

  /** {@link RejectionReason#SIGNATURE_MALFORMED}: {@code "<header> <problem>"}; never pass the value. */
  public static DeliveryRejectedException signatureMalformed(String header, String problem) {
    return new DeliveryRejectedException(
        RejectionReason.SIGNATURE_MALFORMED, requireNonNull(header, "header") + " " + problem);
  }

  /**
   * {@link RejectionReason#SIGNATURE_MISMATCH}, naming the ids (never the values) of the secrets
   * tried and the two usual causes: a body re-encoded before verification, or a wrong secret.
   *
   * @param hint a provider-specific sentence about its secrets, appended; may be empty
   */
  public static DeliveryRejectedException signatureMismatch(String header, Secrets secrets, String hint) {
    String ids = secrets.list().stream().map(Secret::id).collect(Collectors.joining(", "));
    int n = secrets.list().size();
    return new DeliveryRejectedException(
        RejectionReason.SIGNATURE_MISMATCH,
        header + " matches none of the " + n + " configured secret" + (n == 1 ? "" : "s") + " (id"
            + (n == 1 ? " " : "s ") + ids + "): the body was probably re-encoded or parsed by a framework"
            + " before verification (verify the exact raw bytes), or the secret is wrong"
            + (hint.isEmpty() ? "" : "; " + hint));
  }

  /** {@link RejectionReason#NO_SECRET_CONFIGURED} for a provider and (possibly empty) tenant. */
  public static DeliveryRejectedException noSecret(String provider, String tenant) {
    return new DeliveryRejectedException(
        RejectionReason.NO_SECRET_CONFIGURED,
        "no " + provider + " webhook secret is configured"
            + (tenant.isEmpty() ? "" : " for tenant '" + printable(tenant) + "'")
            + ", so the delivery cannot be verified");
  }

  /** {@link RejectionReason#MALFORMED}: the signature held but the content is unusable. */
  public static DeliveryRejectedException malformed(String message) {
    return new DeliveryRejectedException(RejectionReason.MALFORMED, message);
  }

  /** {@link RejectionReason#TOO_LARGE}: a body over the provider's limit. */
  public static DeliveryRejectedException tooLarge(String provider, long length, int limit) {
    return new DeliveryRejectedException(
        RejectionReason.TOO_LARGE,
        provider + " body of " + length + " bytes exceeds the limit of " + limit + " bytes");
  }

  /**
   * A request-supplied value made safe to put in a message: control characters replaced by
   * {@code ?}, cut to 64 characters.
   */
  public static String printable(String value) {
    StringBuilder out = new StringBuilder(Math.min(value.length(), MAX_ECHO + 3));
    for (int i = 0; i < value.length() && i < MAX_ECHO; i++) {
      char c = value.charAt(i);
      out.append(Character.isISOControl(c) ? '?' : c);
    }
    return value.length() > MAX_ECHO ? out.append("...").toString() : out.toString();
  }
}
