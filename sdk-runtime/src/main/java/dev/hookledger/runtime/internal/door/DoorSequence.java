package dev.hookledger.runtime.internal.door;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.runtime.HandlerFailedException;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.RefusalReason;
import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.UnknownProviderException;
import dev.hookledger.runtime.internal.receive.Receiver;
import dev.hookledger.runtime.internal.refusal.RequestFacts;
import dev.hookledger.runtime.internal.servlet.BodyRead;
import dev.hookledger.runtime.internal.servlet.BodyReader;
import dev.hookledger.runtime.internal.servlet.Deliveries;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.OptionalInt;

/**
 * The one sequence of the servlet door, shared by the filter and SHADOW: identify the provider,
 * refuse what is not a POST, let the adapter refuse from headers alone before a byte of the body
 * is read, read the body under the provider's limit, the runtime's budget and its read deadline,
 * then verify and record through the runtime's {@code receive}. Each refusal is recorded here,
 * once, with what the request shows of its sender; what to answer is the caller's.
 */
public final class DoorSequence {
  private DoorSequence() {}

  /**
   * The runtime's {@code receive}, which checks its lifecycle first; {@code arrivedNanos} is when the
   * request reached the door ({@link System#nanoTime()}), from which the answer's bound is measured.
   */
  @FunctionalInterface
  public interface Receive {
    Receipt receive(String providerId, InboundDelivery delivery, long arrivedNanos);
  }

  /**
   * Runs the door for one request whose path names {@code provider}.
   *
   * @param path the request's path; {@code providerPath} what follows the provider's segment
   * @return what came of it; never null. The caller closes it once done with the body.
   */
  public static DoorOutcome pass(Door door, Receive receive, HttpServletRequest request, String path,
      String providerPath, String provider) {
    // the provider's clock runs from its request, not from the commit: the body's read counts too
    long arrived = System.nanoTime();
    OptionalInt maxBodyBytes = door.maxBodyBytes(provider);
    InboundDelivery headers = Deliveries.headersOf(request, path).withProviderPath(providerPath);
    if (maxBodyBytes.isEmpty()) {
      refuse(door, request, headers, provider, RefusalReason.UNKNOWN_PROVIDER);
      return new DoorOutcome.UnknownProvider(null);
    }
    int limit = maxBodyBytes.getAsInt();
    if (!request.getMethod().equals("POST")) {
      return new DoorOutcome.NotPost(request.getMethod());
    }
    try {
      door.checkHeaders(provider, headers);
    } catch (DeliveryRejectedException e) {
      refuse(door, request, headers, provider, RefusalReason.of(e.reason()));
      return new DoorOutcome.Refused(e, null);
    } catch (RuntimeException e) {
      return new DoorOutcome.Failed(e, null);
    }
    if (request.getContentLengthLong() > limit) {
      // refused before the stream is opened: in SHADOW the container still serves the body as ever
      return tooLarge(door, request, headers, provider, limit, null);
    }
    BodyRead body;
    try {
      body = BodyReader.read(request.getInputStream(), request.getContentLengthLong(), limit, door.bodyBudget(),
          door.bodyReadDeadline());
    } catch (IOException e) {
      refuse(door, request, headers, provider, RefusalReason.MALFORMED);
      return new DoorOutcome.Unreadable(e);
    }
    return switch (body.status()) {
      case TOO_LARGE -> tooLarge(door, request, headers, provider, limit, body);
      case OVER_BUDGET -> {
        refuse(door, request, headers, provider, RefusalReason.OVER_BUDGET);
        yield new DoorOutcome.OverBudget(body);
      }
      case TIMED_OUT -> {
        refuse(door, request, headers, provider, RefusalReason.READ_TIMEOUT);
        yield new DoorOutcome.TimedOut(door.bodyReadDeadline().limit(), body);
      }
      case READ -> receive(door, receive, request, provider, Deliveries.withBody(headers, body.bytes()), body, arrived);
    };
  }

  private static DoorOutcome tooLarge(Door door, HttpServletRequest request, InboundDelivery headers, String provider,
      int limit, BodyRead body) {
    door.rejectedTooLarge(provider);
    refuse(door, request, headers, provider, RefusalReason.TOO_LARGE);
    return new DoorOutcome.Refused(Receiver.tooLargeRejection(provider, limit), body);
  }

  private static DoorOutcome receive(Door door, Receive receive, HttpServletRequest request, String provider,
      InboundDelivery delivery, BodyRead body, long arrived) {
    try {
      return new DoorOutcome.Received(receive.receive(provider, delivery, arrived), body);
    } catch (DeliveryRejectedException e) {
      refuse(door, request, delivery, provider, RefusalReason.of(e.reason()));
      return new DoorOutcome.Refused(e, body);
    } catch (LedgerUnavailableException e) {
      return new DoorOutcome.Unavailable(e, body);
    } catch (HandlerFailedException e) {
      return new DoorOutcome.HandlerFailed(body);
    } catch (UnknownProviderException e) {
      refuse(door, request, delivery, provider, RefusalReason.UNKNOWN_PROVIDER);
      return new DoorOutcome.UnknownProvider(body);
    } catch (RuntimeException e) {
      return new DoorOutcome.Failed(e, body);
    }
  }

  /**
   * Records a refusal with the headers the door has already collected: a provider the runtime does
   * not know is counted as {@link RefusedDeliveries#UNKNOWN_PROVIDER} (the path is kept), so that a
   * sender cannot grow the counts.
   */
  private static void refuse(Door door, HttpServletRequest request, InboundDelivery delivery, String provider,
      RefusalReason reason) {
    String counted = reason == RefusalReason.UNKNOWN_PROVIDER ? RefusedDeliveries.UNKNOWN_PROVIDER : provider;
    door.refused(counted, reason, RequestFacts.of(request.getRemoteAddr(), delivery.path(), delivery.headers()));
  }
}
