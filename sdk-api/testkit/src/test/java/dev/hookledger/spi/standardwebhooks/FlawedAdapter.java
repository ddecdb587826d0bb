package dev.hookledger.spi.standardwebhooks;

import static java.util.Objects.requireNonNull;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.json.JsonFields;
import dev.hookledger.standardwebhooks.StandardWebhooksAdapter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.stream.Collectors;

/**
 * The Standard Webhooks adapter with one deliberate flaw, so that {@link ContractKitDetectsFlawsTest}
 * can prove the contract kit fails an adapter that has it. Test-only; the no-argument constructor
 * (for {@link java.util.ServiceLoader}) gives the sound adapter.
 */
public final class FlawedAdapter implements ProviderAdapter {
  /** What is wrong with the adapter. */
  public enum Flaw {
    NONE,
    /** A signature that matches no secret is taken for the first secret's. */
    ACCEPTS_ANY_SIGNATURE,
    /** A signature mismatch lists the values of the secrets it tried. */
    ECHOES_SECRETS,
    /** A signed timestamp outside the window is let through. */
    IGNORES_TIMESTAMPS,
    /** A verified delivery whose display-only {@code timestamp} is not an ISO string is refused as malformed. */
    REFUSES_ODD_TIMESTAMP,
    /** The header check refuses a delivery it cannot judge: any without a body. */
    HEADER_CHECK_REFUSES_EVERYTHING
  }

  private final StandardWebhooksAdapter sound = new StandardWebhooksAdapter();
  private final Flaw flaw;

  public FlawedAdapter() {
    this(Flaw.NONE);
  }

  FlawedAdapter(Flaw flaw) {
    this.flaw = requireNonNull(flaw, "flaw");
  }

  @Override
  public String id() {
    return sound.id();
  }

  @Override
  public void checkHeaders(InboundDelivery delivery, Secrets secrets) {
    if (flaw == Flaw.HEADER_CHECK_REFUSES_EVERYTHING && delivery.bodyLength() == 0) {
      throw new DeliveryRejectedException(RejectionReason.SIGNATURE_MISMATCH, "cannot verify without a body");
    }
    sound.checkHeaders(delivery, secrets);
  }

  @Override
  public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
    try {
      WebhookEvent event = sound.verify(delivery, secrets, clock);
      if (flaw == Flaw.REFUSES_ODD_TIMESTAMP) {
        // the strict reading the rule forbids: a display field's type decides the delivery's fate
        JsonFields.isoInstant(event.payload(), "timestamp", "the body");
      }
      return event;
    } catch (DeliveryRejectedException e) {
      if (flaw == Flaw.ACCEPTS_ANY_SIGNATURE && e.reason() == RejectionReason.SIGNATURE_MISMATCH) {
        return sound.verify(signedWith(secrets.list().get(0), delivery), secrets, clock);
      }
      if (flaw == Flaw.ECHOES_SECRETS && e.reason() == RejectionReason.SIGNATURE_MISMATCH) {
        throw new DeliveryRejectedException(e.reason(), e.getMessage() + "; tried "
            + secrets.list().stream().map(FlawedAdapter::whsec).collect(Collectors.joining(", ")));
      }
      if (flaw == Flaw.IGNORES_TIMESTAMPS && e.reason() == RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE) {
        return sound.verify(delivery, secrets, Clock.fixed(signedAt(delivery), ZoneOffset.UTC));
      }
      throw e;
    }
  }

  private static InboundDelivery signedWith(Secret secret, InboundDelivery delivery) {
    String messageId = delivery.headers().first(StandardWebhooksAdapter.MESSAGE_ID).orElseThrow();
    long timestamp = signedAt(delivery).getEpochSecond();
    byte[] body = delivery.bodyBytes();
    return StandardWebhooksTestSigner.delivery(messageId, timestamp,
        StandardWebhooksTestSigner.v1(whsec(secret), messageId, timestamp, body), body);
  }

  private static Instant signedAt(InboundDelivery delivery) {
    return Instant.ofEpochSecond(Long.parseLong(delivery.headers().first(StandardWebhooksAdapter.TIMESTAMP).orElseThrow()));
  }

  private static String whsec(Secret secret) {
    return "whsec_" + Base64.getEncoder().encodeToString(secret.keyBytes());
  }
}
