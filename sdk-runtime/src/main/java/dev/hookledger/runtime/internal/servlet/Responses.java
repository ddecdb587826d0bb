package dev.hookledger.runtime.internal.servlet;

import dev.hookledger.DeliveryRejectedException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Writes the filter's short plain-text answers. They name the reason, never a secret or the body. */
public final class Responses {
  /** Seconds a provider is asked to wait when the ledger cannot record. */
  public static final int RETRY_AFTER_SECONDS = 5;

  private Responses() {}

  public static void text(HttpServletResponse response, int status, String text) throws IOException {
    byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
    response.setStatus(status);
    response.setContentType("text/plain;charset=utf-8");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  /** 405 with {@code Allow: POST}. */
  public static void methodNotAllowed(HttpServletResponse response, String method) throws IOException {
    response.setHeader("Allow", "POST");
    text(response, 405, "method " + method + " not allowed: webhooks are delivered with POST");
  }

  /** 413, closing the connection: the rest of the body is not read. */
  public static void tooLarge(HttpServletResponse response, String message) throws IOException {
    response.setHeader("Connection", "close");
    text(response, 413, "too large: " + message);
  }

  /**
   * The answer to a refused delivery. A 401 names the check that failed and nothing else: the
   * adapter's message (for the log) can say how many secrets were tried, their ids or the
   * tolerance, which describe the configuration to whoever posts. A 400 or 413 keeps the message,
   * which is about the body the caller sent.
   */
  public static void rejected(HttpServletResponse response, DeliveryRejectedException e) throws IOException {
    if (e.httpStatus() == 413) {
      tooLarge(response, e.getMessage());
      return;
    }
    text(response, e.httpStatus(), "rejected (" + e.reason() + "): "
        + (e.httpStatus() == 401 ? RejectionAnswers.of(e.reason()) : e.getMessage()));
  }

  /**
   * Marks an answer given before the body was read: the connection closes after it, rather than
   * the container reading (or failing to discard) the rest of a body nobody wants.
   */
  public static void unread(HttpServletResponse response) {
    response.setHeader("Connection", "close");
  }

  /**
   * 503 with {@code Retry-After}, closing the connection: the one answer to every overload (the
   * ledger cannot record, its writers are saturated, the body budget is spent), so that nobody
   * learns from it which one, nor how much of the body budget is left. The body, if unread, stays so.
   * It says what is true of every one of them: a delivery whose commit did not come in time may still
   * be recorded, and its redelivery is then answered {@code duplicate}.
   */
  public static void unavailable(HttpServletResponse response) throws IOException {
    unread(response);
    response.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
    text(response, 503, "unavailable: retry later (the delivery may be recorded; a redelivery is answered duplicate)");
  }

  /** 408, closing the connection: the body did not arrive within its deadline, and the rest is not read. */
  public static void timedOut(HttpServletResponse response) throws IOException {
    unread(response);
    text(response, 408, "timeout: the body did not arrive in time; nothing was recorded");
  }
}
