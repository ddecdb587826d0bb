package dev.hookledger.spi.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The provider test vectors of {@code provider-specs.md} (Appendix A), shipped in this test-jar as
 * the classpath resource {@code dev/hookledger/spi/testkit/provider-vectors.json} so that every
 * module's tests read the same file wherever they run.
 *
 * <p>Each vector is a JSON object with at least {@code id}, {@code provider}, {@code body} (UTF-8,
 * no trailing newline) and the provider's expected headers or signatures.
 */
public final class ProviderVectors {
  /** Where the vectors live on the classpath. */
  public static final String RESOURCE = "dev/hookledger/spi/testkit/provider-vectors.json";

  private static final List<JsonNode> ALL = load();

  private ProviderVectors() {}

  /** Every vector, in file order. */
  public static List<JsonNode> all() {
    return ALL;
  }

  /** The vectors of one provider ({@code stripe}, {@code github}, {@code shopify}, ...). */
  public static List<JsonNode> of(String provider) {
    List<JsonNode> out = new ArrayList<>();
    ALL.stream().filter(v -> v.path("provider").asText().equals(provider)).forEach(out::add);
    return out;
  }

  /** The vector with this id ({@code GH-1}). */
  public static JsonNode byId(String id) {
    return ALL.stream()
        .filter(v -> v.path("id").asText().equals(id))
        .findFirst()
        .orElseThrow(() -> new NoSuchElementException("no provider vector with id " + id));
  }

  /** A vector's body as its exact UTF-8 bytes. */
  public static byte[] body(JsonNode vector) {
    return vector.path("body").asText().getBytes(StandardCharsets.UTF_8);
  }

  private static List<JsonNode> load() {
    // from this class's own module: on the module path its package is not opened to everyone
    try (InputStream in = ProviderVectors.class.getResourceAsStream("/" + RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the classpath (is sdk-api's test-jar a test dependency?)");
      }
      List<JsonNode> list = new ArrayList<>();
      new ObjectMapper().readTree(in).forEach(list::add);
      return List.copyOf(list);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
