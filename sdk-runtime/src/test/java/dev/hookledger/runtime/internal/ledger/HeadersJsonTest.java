package dev.hookledger.runtime.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.hookledger.internal.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The headers column is written by hand: the text must be the one Jackson writes for the same map,
 * character for character, and read back to the same headers, whatever characters a sender put in a
 * header (every control character, quotes, backslashes, Latin-1 as HTTP carries it, and beyond).
 */
class HeadersJsonTest {

  @Test
  void writesWhatJacksonWritesForEveryCharacterASenderCanPutInAHeader() throws JsonProcessingException {
    StringBuilder ascii = new StringBuilder();
    for (char c = 0; c < 0x80; c++) {
      ascii.append(c);
    }
    StringBuilder latin1 = new StringBuilder();
    for (char c = 0x80; c <= 0xFF; c++) {
      latin1.append(c);
    }
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("X-GitHub-Event", "push");
    headers.put("X-Ascii", ascii.toString());
    headers.put("X-Latin-1", latin1.toString());
    headers.put("X-Beyond", "caf\u00e9 \u20ac \ud83d\ude80 \u2028\u2029");
    headers.put("X-\"Quoted\"\\Name\t", "\"a\\b\"");
    headers.put("X-Empty", "");

    String written = HeadersJson.write(headers).data();

    assertEquals(Json.MAPPER.writeValueAsString(headers), written);
    assertEquals(headers, HeadersJson.read(org.jooq.JSONB.valueOf(written)));
  }

  @Test
  void leavesOutTheSensitiveHeadersAndWritesAnEmptyObjectForNone() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Stripe-Signature", "t=1,v1=abc");
    headers.put("X-Hub-Signature-256", "sha256=abc");
    headers.put("Authorization", "Bearer x");
    headers.put("X-Shopify-Topic", "orders/create");

    assertEquals("{\"X-Shopify-Topic\":\"orders/create\"}", HeadersJson.write(headers).data());
    assertEquals("{}", HeadersJson.write(Map.of()).data());
    assertEquals("{}", HeadersJson.write(Map.of("X-Hub-Signature", "sha1=abc")).data());
  }
}
