package dev.hookledger.spi.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.ProviderAdapter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * A fuzzer's bytes read as a delivery, so that a corpus of real and malformed deliveries is written
 * by hand and mutated by the fuzzer alike: header lines {@code Name: value}, a blank line, then the
 * body's raw bytes (no blank line: it is all body). Pseudo-headers steer the harness:
 * {@code @sign: yes} has the provider's signature computed over the body (so that the fuzzer reaches
 * what runs after a signature holds), {@code @path: /webhooks/stripe/acct_1} sets the path,
 * {@code @method: PUT} the method, {@code @chunked: yes} asks an HTTP harness to send the body chunked.
 *
 * <pre>
 * &#64;sign: yes
 * X-GitHub-Event: installation
 * X-GitHub-Delivery: 72d3162e-cc78-11e3-81ab-4c9367dc0958
 *
 * {"action":"created","installation":{"id":1,"updated_at":1501449845}}
 * </pre>
 *
 * <p>The property every adapter must hold: {@link #check} ends in an event or a
 * {@link DeliveryRejectedException}, never another exception, and the header check refuses only as
 * verify does.
 */
public record FuzzedDelivery(InboundDelivery delivery, boolean sign, boolean chunked) {

  /** Parses fuzzer input; never throws. */
  public static FuzzedDelivery parse(byte[] data, String defaultPath) {
    int split = indexOf(data, new byte[] {'\n', '\n'});
    HttpHeaders.Builder headers = HttpHeaders.builder();
    String path = defaultPath;
    String method = "POST";
    boolean sign = false;
    boolean chunked = false;
    byte[] body = data;
    if (split >= 0) {
      body = Arrays.copyOfRange(data, split + 2, data.length);
      for (String line : new String(data, 0, split, StandardCharsets.ISO_8859_1).split("\n")) {
        int colon = line.indexOf(':');
        if (colon <= 0) {
          continue;
        }
        String name = line.substring(0, colon).trim();
        String value = line.substring(colon + 1).trim();
        if (name.equals("@sign")) {
          sign = value.equals("yes");
        } else if (name.equals("@chunked")) {
          chunked = value.equals("yes");
        } else if (name.equals("@method")) {
          method = !value.isEmpty() && value.chars().allMatch(FuzzedDelivery::isTokenChar) ? value : method;
        } else if (name.equals("@path")) {
          path = value.startsWith("/") && value.chars().allMatch(c -> c > 32 && c < 127) ? value : defaultPath;
        } else if (!name.isEmpty() && name.chars().allMatch(FuzzedDelivery::isTokenChar)) {
          // only what an HTTP server would pass on as a header
          headers.add(name, value);
        }
      }
    }
    return new FuzzedDelivery(InboundDelivery.of(method, path, headers.build(), body), sign, chunked);
  }

  /**
   * The adapter's answer to this delivery (signed first if asked, by {@code signer}: the delivery and
   * the signature header's value): an event or a rejection, and the header check consistent with it.
   *
   * @param signer computes the signature header for a body: (name, value)
   * @throws AssertionError if an exception other than a rejection escapes, or the header check
   *     refuses a delivery verify accepts or refuses it for another reason
   */
  public Optional<WebhookEvent> check(ProviderAdapter adapter, Secrets secrets, Clock clock,
      BiFunction<InboundDelivery, byte[], String[]> signer) {
    InboundDelivery d = delivery;
    if (sign) {
      String[] header = signer.apply(d, d.bodyBytes());
      d = AdapterContractTest.withHeader(d, header[0], header[1]);
    }
    DeliveryRejectedException byHeaders = null;
    try {
      adapter.checkHeaders(AdapterContractTest.withBody(d, new byte[0]), secrets);
    } catch (DeliveryRejectedException e) {
      byHeaders = e;
    }
    try {
      WebhookEvent event = adapter.verify(d, secrets, clock);
      assertNotNull(event);
      assertEquals(adapter.id(), event.provider());
      if (byHeaders != null) {
        throw new AssertionError("the header check refused (" + byHeaders.reason() + ") a delivery verify accepts");
      }
      return Optional.of(event);
    } catch (DeliveryRejectedException e) {
      if (byHeaders != null && byHeaders.reason() != e.reason()) {
        throw new AssertionError("the header check refused with " + byHeaders.reason() + ", verify with " + e.reason());
      }
      return Optional.empty();
    }
  }

  private static boolean isTokenChar(int c) {
    return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
  }

  private static int indexOf(byte[] data, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= data.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (data[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
