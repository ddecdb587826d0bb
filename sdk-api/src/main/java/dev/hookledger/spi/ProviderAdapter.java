package dev.hookledger.spi;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import java.time.Clock;

/**
 * Turns one provider's raw delivery into a verified {@link WebhookEvent}, or refuses it with a
 * precise {@link dev.hookledger.RejectionReason}. The one SPI an adapter author implements.
 *
 * <p>Contract:
 * <ul>
 *   <li>Verify first: nothing is parsed (no JSON, no strings built from the body) before the
 *       signature holds. Compare in constant time ({@link Signatures#equal}).
 *   <li>Accept a delivery signed with any of the given secrets, and record which one matched.
 *   <li>Where the provider signs a timestamp, reject it outside a two-sided tolerance measured on
 *       the given clock.
 *   <li>Extract an event id that is stable across the provider's retries, and the scope that makes it
 *       unique.
 *   <li>Never put a secret, a signature value or the body into an exception message.
 * </ul>
 *
 * <p>Implementations are immutable and thread-safe: one instance serves every request. To be found
 * by id from {@code web.xml}, list the class in
 * {@code META-INF/services/dev.hookledger.spi.ProviderAdapter} and give it a public no-argument
 * constructor with sane defaults. The adapter contract kit, artifact
 * {@code hookledger-adapter-testkit} ({@code AdapterContractTest}), checks all of the above.
 */
public interface ProviderAdapter {

  /** The provider id, lower case ({@code stripe}); the last segment of {@code /webhooks/{id}}. */
  String id();

  /**
   * The largest body this provider may send: the default of the limit the runtime enforces (with
   * 413, before the body is read whole, and before {@link #verify} is called), which the runtime's
   * configuration may raise or lower. The adapter does not check it itself. Defaults to 5 MiB.
   */
  default int maxBodyBytes() {
    return 5 * 1024 * 1024;
  }

  /**
   * Whether deliveries are verified with shared secrets: then the runtime refuses a delivery whose
   * tenant has none configured ({@link dev.hookledger.RejectionReason#NO_SECRET_CONFIGURED}) before
   * {@link #verify} is called, and the adapter does not check it itself. False for an adapter that
   * verifies with public keys only. Defaults to true.
   */
  default boolean needsSecrets() {
    return true;
  }

  /**
   * The length, in characters, of the shortest secret the provider issues: the runtime refuses at
   * start-up a configured secret that is shorter (it cannot be the provider's, and a short one can be
   * guessed), as well as blank ones, unresolved {@code ${...}} placeholders and values published as
   * examples. Defaults to 1 (any value that is not blank).
   */
  default int minimumSecretLength() {
    return 1;
  }

  /**
   * Refuses, when the adapter is registered, configured secrets the provider cannot have issued for
   * a reason {@link #minimumSecretLength()} cannot see (e.g. a key that decodes to too few bytes). The
   * runtime calls it at start-up with each provider's secrets, after its own checks. The default
   * accepts any.
   *
   * @throws IllegalArgumentException naming the secret's id and the rule, never its value
   */
  default void checkSecrets(Secrets secrets) {}

  /**
   * Whether the provider delivers again, on its own, a delivery that was answered with an error
   * (a 5xx or no answer). The runtime warns at start-up when {@code INLINE} processing, which
   * answers a failed handler with 500, is configured for a provider that does not: such an event
   * is lost until redelivered by hand. Defaults to true.
   */
  default boolean redeliversOnFailure() {
    return true;
  }

  /**
   * Whether all the events that change one entity (one {@link dev.hookledger.WebhookEvent#entityKey()
   * entity key}) come with one {@link dev.hookledger.WebhookEvent#scope() scope}: a Stripe object
   * belongs to one account, a Shopify resource to one shop, but a GitHub issue reaches every hook that
   * watches it. On a ledger distributed by scope (Citus) the ordering guard keeps the versions of such
   * an entity beside its events, so that an event's transaction stays on one shard; the versions of
   * entities that span scopes are kept apart, ordered across scopes, at the cost of a second shard in
   * the transaction. Changes nothing on plain PostgreSQL. Defaults to false.
   */
  default boolean entitiesStayInScope() {
    return false;
  }

  /**
   * The tenant whose secrets verify this delivery, read from headers or the path only (the body is
   * not trusted yet); empty, never null, when the provider has one secret per endpoint.
   */
  default String tenantOf(InboundDelivery delivery) {
    return "";
  }

  /**
   * Refuses, from its headers alone, a delivery that {@link #verify} would refuse whatever its body:
   * no signature header, a malformed one, no secret for the tenant. The runtime calls it before it
   * reads the body, so that a flood of unsigned posts is answered 401 without a byte of their bodies
   * in memory. Only signature checks belong here (reasons that answer 401); anything about the
   * content waits for {@link #verify}, which still makes every check.
   *
   * <p>The default checks nothing. An override must be cheap (no HMAC: there is no body yet) and
   * must never refuse a delivery that {@link #verify} would accept.
   *
   * @param delivery method, path and headers as received; its body is empty (not read yet)
   * @param secrets the secrets resolved for {@link #tenantOf} this delivery; may be
   *     {@linkplain Secrets#isEmpty() empty}
   * @throws DeliveryRejectedException with the reason {@link #verify} would give
   */
  default void checkHeaders(InboundDelivery delivery, Secrets secrets) {}

  /**
   * Verifies the delivery and extracts the event.
   *
   * @param delivery the request as received
   * @param secrets the secrets to try, in order; never {@linkplain Secrets#isEmpty() empty} when
   *     {@link #needsSecrets()}
   * @param clock the time against which signed timestamps are judged
   * @return the verified event; never null
   * @throws DeliveryRejectedException with the reason it was refused
   */
  WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock);
}
