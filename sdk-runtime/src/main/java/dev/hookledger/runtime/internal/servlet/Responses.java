package dev.hookledger.runtime.internal.servlet;

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

  /** 503 with {@code Retry-After}. */
  public static void unavailable(HttpServletResponse response) throws IOException {
    response.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
    text(response, 503, "ledger unavailable: the delivery was not recorded; retry later");
  }
}
