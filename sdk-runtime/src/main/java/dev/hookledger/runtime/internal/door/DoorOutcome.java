package dev.hookledger.runtime.internal.door;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.internal.servlet.BodyRead;
import java.io.IOException;
import java.time.Duration;

/**
 * What the door made of one request under the webhook path: the filter answers it, SHADOW logs it
 * and passes the request on. Every refusal in it has already been recorded (counted, kept, told to
 * the listener). Holds the body's bytes reserved in the runtime's budget until {@linkplain #close()
 * closed}.
 */
public sealed interface DoorOutcome extends AutoCloseable {
  /** What was read of the body, or null if nothing was. */
  BodyRead body();

  @Override
  default void close() {
    BodyRead body = body();
    if (body != null) {
      body.close();
    }
  }

  /** No provider of that id is registered (or the path names none). */
  record UnknownProvider(BodyRead body) implements DoorOutcome {}

  /** Not a POST; nothing was looked at. */
  record NotPost(String method) implements DoorOutcome {
    @Override
    public BodyRead body() {
      return null;
    }
  }

  /**
   * Refused with the rejection's status: by the adapter from headers alone ({@code body} null, the
   * body left unread), a body over the provider's limit, or by verification.
   */
  record Refused(DeliveryRejectedException rejection, BodyRead body) implements DoorOutcome {}

  /** The body could not be read (a broken or cut stream). */
  record Unreadable(IOException cause) implements DoorOutcome {
    @Override
    public BodyRead body() {
      return null;
    }
  }

  /** The runtime's body budget could not hold the body. */
  record OverBudget(BodyRead body) implements DoorOutcome {}

  /** The body did not arrive within {@code limit}. */
  record TimedOut(Duration limit, BodyRead body) implements DoorOutcome {}

  /** Verified and recorded (and, INLINE, processed). */
  record Received(Receipt receipt, BodyRead body) implements DoorOutcome {}

  /** The ledger could not record it, or the runtime is not running. */
  record Unavailable(LedgerUnavailableException cause, BodyRead body) implements DoorOutcome {}

  /** An INLINE handler failed; nothing was recorded. */
  record HandlerFailed(BodyRead body) implements DoorOutcome {}

  /** Something failed unexpectedly: in the header check ({@code body} null) or after the body was read. */
  record Failed(RuntimeException cause, BodyRead body) implements DoorOutcome {}
}
