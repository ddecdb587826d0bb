package dev.hookledger.runtime;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.runtime.internal.servlet.BodyRead;
import dev.hookledger.runtime.internal.servlet.BodyReader;
import dev.hookledger.runtime.internal.servlet.Deliveries;
import dev.hookledger.runtime.internal.servlet.ReplayedBodyRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ProcessingMode#SHADOW} at the filter: records a delivery as the enforcing modes would
 * (verified; new events settled {@code ignored} with source {@code shadow}, duplicates counted),
 * dispatches nothing and answers nothing. The request goes on to the application's existing
 * endpoint, body readable again, whatever the outcome: a delivery enforcing would refuse
 * (signature, size, unknown provider, method) and one the ledger could not record are passed on
 * too, counted by the listener ({@code rejected}, {@code ledgerUnavailable}) and logged at WARN,
 * because in shadow mode the existing endpoint still decides.
 */
final class ShadowPass {
  private static final Logger log = LoggerFactory.getLogger(ShadowPass.class);

  private ShadowPass() {}

  /**
   * The request to pass on, holding the body's bytes reserved in the runtime's budget until
   * {@linkplain #close() closed}, after the rest of the chain has run.
   */
  record Passed(HttpServletRequest request, BodyRead body) implements AutoCloseable {
    @Override
    public void close() {
      if (body != null) {
        body.close();
      }
    }
  }

  /** Records the delivery if it can, and returns the request to pass on. */
  static Passed record(WebhookRuntime runtime, HttpServletRequest request, String path, String providerPath,
      String provider) {
    OptionalInt maxBodyBytes = runtime.door().maxBodyBytes(provider);
    if (maxBodyBytes.isEmpty()) {
      log.debug("shadow mode: no provider '{}' registered; request passed on unrecorded", provider);
      DoorRefusals.record(runtime, request, path, provider, RefusalReason.UNKNOWN_PROVIDER);
      return new Passed(request, null);
    }
    int limit = maxBodyBytes.getAsInt();
    if (!request.getMethod().equals("POST")) {
      return new Passed(request, null);
    }
    if (request.getContentLengthLong() > limit) {
      tooLarge(runtime, request, path, provider, limit);
      return new Passed(request, null); // not a byte read: the container serves the body as ever
    }
    InboundDelivery headers = Deliveries.headersOf(request, path).withProviderPath(providerPath);
    try {
      runtime.door().checkHeaders(provider, headers);
    } catch (DeliveryRejectedException e) {
      wouldReject(runtime, request, path, provider, e);
      return new Passed(request, null);
    } catch (RuntimeException e) {
      log.error("shadow mode: {} delivery passed on unrecorded, its header check failed unexpectedly", provider, e);
      return new Passed(request, null);
    }
    BodyRead body;
    try {
      body = BodyReader.read(request.getInputStream(), request.getContentLengthLong(), limit, runtime.door().bodyBudget(),
          runtime.door().bodyReadDeadline());
    } catch (IOException e) {
      // the container's stream is broken or cut short: the existing endpoint finds the rest so too
      log.debug("shadow mode: {} delivery body could not be read, passed on unrecorded: {}", provider, e.toString());
      return new Passed(ReplayedBodyRequest.partlyRead(request, new byte[0]), null);
    }
    switch (body.status()) {
      case TOO_LARGE -> tooLarge(runtime, request, path, provider, limit);
      case OVER_BUDGET -> {
        DoorRefusals.record(runtime, request, headers, provider, RefusalReason.OVER_BUDGET);
        log.warn("shadow mode: {} delivery passed on unrecorded: the body budget is spent ({})", provider,
            runtime.door().bodyBudget());
      }
      case TIMED_OUT -> {
        DoorRefusals.record(runtime, request, headers, provider, RefusalReason.READ_TIMEOUT);
        log.warn("shadow mode: {} delivery passed on unrecorded: its body did not arrive within {}", provider,
            runtime.door().bodyReadDeadline().limit());
      }
      case READ -> {
        ShadowOutcome.recorded(request,
            receive(runtime, request, path, provider, Deliveries.withBody(headers, body.bytes())));
        return new Passed(ReplayedBodyRequest.whole(request, body.bytes()), body);
      }
    }
    // what was read goes on first, then the rest of the container's stream; the prefix stays
    // reserved in the budget until the existing endpoint is done with the request
    return new Passed(body.bytes().length == 0 ? request : ReplayedBodyRequest.partlyRead(request, body.bytes()), body);
  }

  private static void wouldReject(WebhookRuntime runtime, HttpServletRequest request, String path, String provider,
      DeliveryRejectedException e) {
    DoorRefusals.record(runtime, request, path, provider, RefusalReason.of(e.reason()));
    log.warn("shadow mode: {} delivery would be rejected with {} ({}): {}; passed on unrecorded", provider,
        e.httpStatus(), e.reason(), e.getMessage());
  }

  private static void tooLarge(WebhookRuntime runtime, HttpServletRequest request, String path, String provider,
      int limit) {
    runtime.door().rejectedTooLarge(provider);
    DoorRefusals.record(runtime, request, path, provider, RefusalReason.TOO_LARGE);
    log.warn("shadow mode: {} delivery larger than {} bytes would be refused (413); passed on unrecorded",
        provider, limit);
  }

  /** @return what the ledger did with it, or null if it was not recorded */
  private static Receipt receive(WebhookRuntime runtime, HttpServletRequest request, String path, String provider,
      InboundDelivery delivery) {
    try {
      Receipt receipt = runtime.receive(provider, delivery);
      log.debug("shadow mode: {} {}; passed on", receipt.event(), receipt.outcome());
      return receipt;
    } catch (DeliveryRejectedException e) {
      wouldReject(runtime, request, path, provider, e);
    } catch (LedgerUnavailableException e) {
      log.warn("shadow mode: {} delivery passed on unrecorded, the ledger is unavailable: {}", provider, e.getMessage());
    } catch (RuntimeException e) {
      log.error("shadow mode: {} delivery passed on unrecorded, recording failed unexpectedly", provider, e);
    }
    return null;
  }
}
