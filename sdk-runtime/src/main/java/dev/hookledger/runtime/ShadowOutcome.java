package dev.hookledger.runtime;

import dev.hookledger.runtime.internal.ledger.EventKey;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@link ProcessingMode#SHADOW} after the filter: looks at what the application's existing endpoint
 * answered. A new event is recorded settled before the endpoint runs; if the endpoint then fails
 * (a status outside 2xx, or an exception), the provider redelivers, and that redelivery must not be
 * a duplicate, else after the switch to enforcing it would be answered {@code 200 duplicate} and no
 * handler would ever run. So the row is taken back ({@code ShadowRows}). An asynchronous endpoint is
 * judged when its response completes.
 */
final class ShadowOutcome {
  /** The request attribute by which the shadow pass names the event it has just recorded as new. */
  private static final String RECORDED = ShadowOutcome.class.getName() + ".recorded";

  private ShadowOutcome() {}

  /** Notes on {@code request} that its delivery was recorded as a new shadow event (if it was). */
  static void recorded(HttpServletRequest request, Receipt receipt) {
    if (receipt != null && receipt.outcome() == Receipt.Outcome.SHADOWED) {
      request.setAttribute(RECORDED, EventKey.of(receipt.event()));
    }
  }

  /** Passes the request on to the existing endpoint, then takes the shadow row back if that failed. */
  static void passOn(WebhookRuntime runtime, HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    boolean returned = false;
    try {
      chain.doFilter(request, response);
      returned = true;
    } finally {
      if (request.getAttribute(RECORDED) instanceof EventKey key) {
        request.removeAttribute(RECORDED);
        if (returned && request.isAsyncStarted()) {
          request.getAsyncContext().addListener(new Completion(runtime, key, response));
        } else if (!returned || !succeeded(response)) {
          runtime.door().shadowFailed(key, returned ? "answered " + response.getStatus() : "threw");
        }
      }
    }
  }

  private static boolean succeeded(HttpServletResponse response) {
    return response.getStatus() >= 200 && response.getStatus() < 300;
  }

  /** Judges an asynchronous endpoint once its response is complete. */
  private record Completion(WebhookRuntime runtime, EventKey key, HttpServletResponse response)
      implements AsyncListener {
    @Override
    public void onComplete(AsyncEvent event) {
      if (!succeeded(response)) {
        runtime.door().shadowFailed(key, "answered " + response.getStatus());
      }
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      runtime.door().shadowFailed(key, "timed out");
    }

    @Override
    public void onError(AsyncEvent event) {
      runtime.door().shadowFailed(key, "failed");
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      event.getAsyncContext().addListener(this);
    }
  }
}
