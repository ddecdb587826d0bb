package dev.hookledger.runtime.internal.door;

import dev.hookledger.InboundDelivery;
import dev.hookledger.runtime.RefusalReason;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.refusal.RequestFacts;
import dev.hookledger.runtime.internal.servlet.BodyBudget;
import dev.hookledger.runtime.internal.servlet.ReadDeadline;
import java.util.OptionalInt;

/**
 * What the servlet door (the filter, and SHADOW's pass) needs of a runtime besides
 * {@code receive}: the assembly's collaborators behind one internal interface, so that the door
 * never reaches into the facade.
 */
public interface Door {
  /** The body limit of {@code providerId}, in bytes; empty if no such provider is registered. */
  OptionalInt maxBodyBytes(String providerId);

  /**
   * Refuses, before its body is read, a delivery its adapter refuses from headers alone.
   *
   * @param headersOnly the request with an empty body
   * @throws dev.hookledger.DeliveryRejectedException answered with its status
   */
  void checkHeaders(String providerId, InboundDelivery headersOnly);

  /** Tells the listener of a body refused as too large before {@code receive}. */
  void rejectedTooLarge(String providerId);

  /** Records a delivery the door refused: counted, kept, told to the listener, logged at WARN (rate-limited). */
  void refused(String provider, RefusalReason reason, RequestFacts facts);

  /** The bound on body bytes held by the runtime's requests at once. */
  BodyBudget bodyBudget();

  /** The time each request body may take to arrive. */
  ReadDeadline bodyReadDeadline();

  /**
   * SHADOW: the existing endpoint failed the delivery whose new row is {@code key}; the row is taken
   * back, so that the provider's redelivery is recorded new, and runs the handlers once enforcing.
   */
  void shadowFailed(EventKey key, String how);
}
