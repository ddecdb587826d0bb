package dev.hookledger.runtime;

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
    String counted = reason == RefusalReason.UNKNOWN_PROVIDER ? RefusedDeliveries.UNKNOWN_PROVIDER : provider;
    runtime.refused(counted, reason,
        RequestFacts.of(request.getRemoteAddr(), path, Deliveries.headersOf(request, path).headers()));
  }
}
