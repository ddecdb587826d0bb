package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.internal.admin.BoundedReads;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.outbox.DestinationPauses;
import dev.hookledger.runtime.internal.outbox.EffectTable;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.jooq.DSLContext;

/**
 * The operator's view of the outbox, from {@link InboxAdmin#outbox()}: each destination's backlog,
 * breaker and pause; effects listed by destination, status and cause; an event's effects with every
 * attempt; retrying one effect, or a selection bound to its confirmed count; pausing and resuming a
 * destination. The command line, the admin page, the {@code hookledger.effects.*} gauges and the
 * health check all go through this class.
 *
 * <pre>{@code
 * OutboxAdmin outbox = runtime.admin().outbox();
 * outbox.destinations();                                  // backlog, breaker, pause per destination
 * outbox.list(EffectQuery.all().status(EffectStatus.DEAD)); // which died, with their answers
 * outbox.pause("receipts");                               // while its API is being repaired
 * outbox.resume("receipts");
 * EffectSelection s = EffectSelection.dead().destination("receipts");
 * outbox.retry(s, outbox.retryCount(s));                  // the count shown, confirmed
 * }</pre>
 *
 * <p>Thread-safe; holds no connection between calls. Reads answer within the admin's read timeout;
 * every database failure is thrown as {@link dev.hookledger.LedgerUnavailableException}, a refused
 * operation as {@link OperationRefusedException}, having changed nothing.
 */
public final class OutboxAdmin {
  private final String schema;
  private final BoundedReads reads;
  private final EffectReader reader;
  private final EffectRetrier retrier;
  private final DestinationPauses pauses;

  OutboxAdmin(DSLContext db, String schema, Clock clock, BoundedReads reads, Map<String, Double> rates) {
    EffectTable tables = new EffectTable(schema);
    this.schema = schema;
    this.reads = reads;
    this.reader = new EffectReader(db, tables, clock, Map.copyOf(rates));
    this.retrier = new EffectRetrier(db, tables, new CitusLedger(db, new EventTable(schema)));
    this.pauses = new DestinationPauses(db, schema);
  }

  private <T> T read(Supplier<T> work) {
    return reads.read(() -> LedgerErrors.guard(schema, work));
  }

  private <T> T change(Supplier<T> work) {
    return LedgerErrors.guard(schema, work);
  }

  /**
   * Every destination with effects waiting or dead, a shared state (it has sent, or was paused), or
   * a rate configured where this admin runs, by name: pending, sending and dead counts, the oldest
   * waiting effect's age, breaker and pause. Never null.
   */
  public List<DestinationStatus> destinations() {
    return read(reader::destinations);
  }

  /** The effects {@code query} selects, newest enqueued first; never null. */
  public List<EffectSummary> list(EffectQuery query) {
    requireNonNull(query, "query");
    return read(() -> reader.list(query));
  }

  /**
   * The effects an event's handlers enqueued, oldest first, each with every attempt recorded; empty
   * if it has none (or the ledger has no such event).
   *
   * @param scope the event's scope; empty where the provider has none
   */
  public List<EffectDetail> effectsOf(String provider, String scope, String eventId) {
    requireNonNull(provider, "provider");
    requireNonNull(scope, "scope");
    requireNonNull(eventId, "eventId");
    return read(() -> reader.effectsOf(provider, scope, eventId));
  }

  /**
   * Sets a {@code dead} effect back to {@code pending}, due now, with its attempts reset to 0 (the
   * destination's full budget), or makes a failing one (pending, backing off) due now, attempts
   * kept. Its attempts stay recorded, and its key is the same: the destination can tell a retry
   * from a new request.
   *
   * @param scope the effect's scope (its event's); empty where the provider has none
   * @param idempotencyKey the effect's key, as listed
   * @throws OperationRefusedException if there is no such effect, or it is done, sending or due already
   * @throws IllegalArgumentException if the key is not a UUID
   */
  public void retry(String scope, String idempotencyKey) {
    requireNonNull(scope, "scope");
    UUID key = key(idempotencyKey);
    change(() -> {
      retrier.retry(scope, key);
      return null;
    });
  }

  /**
   * How many effects {@code selection} takes now: the number to show the operator and to pass, once
   * confirmed, to {@link #retry(EffectSelection, long)}. Changes nothing.
   *
   * @throws OperationRefusedException if it takes more than {@link InboxAdmin#MAX_BULK_RETRY}
   */
  public long retryCount(EffectSelection selection) {
    requireNonNull(selection, "selection");
    return read(() -> (long) retrier.count(selection));
  }

  /**
   * Retries every effect {@code selection} takes, if there are exactly {@code confirmed}, as
   * {@link #retry(String, String)} does one, in one transaction and one statement, fenced against
   * senders; if effects failed, died, were sent or retried since the operator saw the count, nothing
   * is retried.
   *
   * @return how many were retried: {@code confirmed}
   * @throws OperationRefusedException if the selection takes another number of effects (naming it),
   *     or more than {@link InboxAdmin#MAX_BULK_RETRY}
   */
  public int retry(EffectSelection selection, long confirmed) {
    requireNonNull(selection, "selection");
    if (confirmed < 0) {
      throw new IllegalArgumentException("confirmed must be >= 0, but was " + confirmed);
    }
    return change(() -> retrier.retry(selection, confirmed));
  }

  /**
   * Pauses a destination on every node: its effects wait (no attempt is made, none dies) until
   * {@link #resume}; an attempt running now finishes.
   *
   * @return false if it was paused already
   * @throws OperationRefusedException if no such destination is known (naming the ones known: those
   *     {@link #destinations()} lists), having changed nothing
   * @throws IllegalArgumentException if the name cannot be a destination's
   */
  public boolean pause(String destination) {
    String name = Destination.named(requireNonNull(destination, "destination")).name();
    return change(() -> pauses.pause(known("pause", name)));
  }

  /**
   * Resumes a paused destination: its effects are sent again (its breaker, if open, still probes first).
   *
   * @return false if it was not paused
   * @throws OperationRefusedException if no such destination is known (naming the ones known: those
   *     {@link #destinations()} lists), having changed nothing
   * @throws IllegalArgumentException if the name cannot be a destination's
   */
  public boolean resume(String destination) {
    String name = Destination.named(requireNonNull(destination, "destination")).name();
    return change(() -> pauses.resume(known("resume", name)));
  }

  /**
   * {@code name} if it is a destination this admin knows: configured where it runs, or with effects
   * waiting or dead or a shared state in the ledger. A name mistyped at a pause would otherwise
   * pause nothing that exists, and leave a row behind that nothing ever resumes.
   */
  private String known(String operation, String name) {
    List<String> known = reader.destinations().stream().map(DestinationStatus::destination).toList();
    if (!known.contains(name)) {
      throw new OperationRefusedException(operation + " " + name + ": no such destination (known: "
          + (known.isEmpty() ? "none" : String.join(", ", known)) + "); nothing was changed");
    }
    return name;
  }

  private static UUID key(String text) {
    requireNonNull(text, "idempotencyKey");
    try {
      return UUID.fromString(text.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("an effect's idempotency key is a UUID, but was '" + text + "'");
    }
  }
}
