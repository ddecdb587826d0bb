package dev.hookledger.runtime;

import dev.hookledger.runtime.internal.door.DoorOutcome;
import dev.hookledger.runtime.internal.door.DoorSequence;
import dev.hookledger.runtime.internal.servlet.BodyRead;
import dev.hookledger.runtime.internal.servlet.ReplayedBodyRequest;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ProcessingMode#SHADOW} at the filter: records a delivery as the enforcing modes would, by
 * the same door sequence (verified; new events settled {@code ignored} with source {@code shadow},
 * duplicates counted), dispatches nothing and answers nothing. The request goes on to the
 * application's existing endpoint, body readable again, whatever the outcome: a delivery enforcing
 * would refuse (signature, size, unknown provider, method) and one the ledger could not record are
 * passed on too, counted as refusals and by the listener ({@code rejected}, {@code ledgerUnavailable})
 * and logged at WARN, because in shadow mode the existing endpoint still decides.
 */
final class ShadowPass {
  private static final Logger log = LoggerFactory.getLogger(ShadowPass.class);

  private ShadowPass() {}

  /**
   * The request to pass on, holding the body's bytes reserved in the runtime's budget until
   * {@linkplain #close() closed}, after the rest of the chain has run.
   */
  record Passed(HttpServletRequest request, DoorOutcome outcome) implements AutoCloseable {
    @Override
    public void close() {
      outcome.close();
    }
  }

  /** Records the delivery if it can, and returns the request to pass on. */
  static Passed record(WebhookRuntime runtime, HttpServletRequest request, String path, String providerPath,
      String provider) {
    DoorOutcome outcome = DoorSequence.pass(runtime.door(), runtime::receive, request, path, providerPath, provider);
    log(outcome, provider);
    if (outcome instanceof DoorOutcome.Received r) {
      ShadowOutcome.recorded(request, r.receipt());
    }
    if (outcome instanceof DoorOutcome.Unreadable) {
      // the container's stream is broken or cut short: the existing endpoint finds the rest so too
      return new Passed(ReplayedBodyRequest.partlyRead(request, new byte[0], runtime.door().bodyReadDeadline()),
          outcome);
    }
    BodyRead body = outcome.body();
    if (body == null) {
      return new Passed(request, outcome); // not a byte read: the container serves the body as ever
    }
    if (body.status() == BodyRead.Status.READ) {
      return new Passed(ReplayedBodyRequest.whole(request, body.bytes()), outcome);
    }
    // what was read goes on first, then the rest of the container's stream; the prefix stays
    // reserved in the budget until the existing endpoint is done with the request, so the rest gets
    // the body read deadline again: a sender trickling it would otherwise hold the prefix for good
    return new Passed(body.bytes().length == 0 ? request
        : ReplayedBodyRequest.partlyRead(request, body.bytes(), runtime.door().bodyReadDeadline()), outcome);
  }

  private static void log(DoorOutcome outcome, String provider) {
    if (outcome instanceof DoorOutcome.Received r) {
      log.debug("shadow mode: {} {}; passed on", r.receipt().event(), r.receipt().outcome());
    } else if (outcome instanceof DoorOutcome.UnknownProvider) {
      log.debug("shadow mode: no provider '{}' registered; request passed on unrecorded", provider);
    } else if (outcome instanceof DoorOutcome.Refused r) {
      log.warn("shadow mode: {} delivery would be rejected with {} ({}): {}; passed on unrecorded", provider,
          r.rejection().httpStatus(), r.rejection().reason(), r.rejection().getMessage());
    } else if (outcome instanceof DoorOutcome.Unreadable u) {
      log.debug("shadow mode: {} delivery body could not be read, passed on unrecorded: {}", provider,
          u.cause().toString());
    } else if (outcome instanceof DoorOutcome.OverBudget) {
      log.warn("shadow mode: {} delivery passed on unrecorded: the body budget is spent", provider);
    } else if (outcome instanceof DoorOutcome.TimedOut t) {
      log.warn("shadow mode: {} delivery passed on unrecorded: its body did not arrive within {}", provider, t.limit());
    } else if (outcome instanceof DoorOutcome.Unavailable u) {
      log.warn("shadow mode: {} delivery passed on unrecorded, the ledger is unavailable: {}", provider,
          u.cause().getMessage());
    } else if (outcome instanceof DoorOutcome.Failed f) {
      log.error("shadow mode: {} delivery passed on unrecorded, {} failed unexpectedly", provider,
          f.body() == null ? "its header check" : "recording", f.cause());
    }
    // NotPost: passed on as any other request; HandlerFailed: SHADOW runs no handler
  }
}
