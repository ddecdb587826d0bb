package dev.hookledger.spi.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.spi.Signatures;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The copy of provider-vectors.json in the test-jar is complete and byte-exact. */
class ProviderVectorsTest {

  @Test
  void everyVectorIsPresentOnce() {
    List<String> ids = ProviderVectors.all().stream().map(v -> v.get("id").asText()).toList();
    assertEquals(List.of("GH-1", "GH-2", "GH-3", "ST-1", "ST-2", "ST-3", "ST-4", "SH-1", "SH-2", "SH-3", "SH-4",
        "SW-1", "SW-2", "SL-1"), ids);
    Set<String> unique = new HashSet<>(ids);
    assertEquals(ids.size(), unique.size());
  }

  @Test
  void everyBodyHasTheDocumentedLengthAndDigest() throws Exception {
    for (JsonNode v : ProviderVectors.all()) {
      byte[] body = ProviderVectors.body(v);
      if (v.has("body_utf8_len")) {
        assertEquals(v.get("body_utf8_len").asInt(), body.length, v.get("id").asText());
      }
      if (v.has("body_sha256")) {
        String digest = Signatures.hex(MessageDigest.getInstance("SHA-256").digest(body));
        assertEquals(v.get("body_sha256").asText(), digest, v.get("id").asText());
      }
    }
  }

  @Test
  void unknownIdIsNamed() {
    assertEquals("no provider vector with id XX-9",
        assertThrows(NoSuchElementException.class, () -> ProviderVectors.byId("XX-9")).getMessage());
    assertEquals(4, ProviderVectors.of("stripe").size());
  }
}
