package dev.hookledger.runtime;

import dev.hookledger.InboundDelivery;
import dev.hookledger.runtime.internal.refusal.RequestFacts;
import dev.hookledger.runtime.internal.servlet.Deliveries;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Records a refusal at the servlet door (the filter, and shadow mode's pass) with what the request
 * shows of its sender: the runtime's one refusal log counts, keeps and logs it.
 */
final class DoorRefusals {
  private DoorRefusals() {}

  /**
   * @param provider the provider of the path; one the runtime does not know is recorded as
   *     {@link RefusedDeliveries#UNKNOWN_PROVIDER} (the path is kept), so that a sender cannot
   *     grow the counts
   */
  static void record(WebhookRuntime runtime, HttpServletRequest request, String path, String provider,
      RefusalReason reason) {
    record(runtime, request, Deliveries.headersOf(request, path), provider, reason);
  }

  /**
   * As {@link #record(WebhookRuntime, HttpServletRequest, String, String, RefusalReason)}, with the
   * headers the door has already collected for the adapter ({@code delivery}'s path and headers), so
   * that a refused request's headers are not walked a second time.
   */
  static void record(WebhookRuntime runtime, HttpServletRequest request, InboundDelivery delivery, String provider,
      RefusalReason reason) {
    String counted = reason == RefusalReason.UNKNOWN_PROVIDER ? RefusedDeliveries.UNKNOWN_PROVIDER : provider;
    runtime.door().refused(counted, reason, RequestFacts.of(request.getRemoteAddr(), delivery.path(), delivery.headers()));
  }
}
