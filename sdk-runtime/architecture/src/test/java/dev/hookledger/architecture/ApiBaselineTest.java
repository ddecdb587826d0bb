package dev.hookledger.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.tngtech.archunit.core.domain.JavaClass;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every published jar's public API is the one checked in under {@code api/<artifactId>.api}, so that
 * a change to what users compile against is a decision made in a commit, visible in its diff, and
 * named in {@code CHANGELOG.md}. After a deliberate change, write the new baseline with
 * {@code ./mvnw -B -pl sdk-runtime/architecture -am test -Dtest=ApiBaselineTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dhookledger.api.update=true} and commit it.
 */
class ApiBaselineTest {
  static final String UPDATE = "hookledger.api.update";
  private static final Path BASELINES = Path.of("api");

  @Test
  void everyPublishedJarsApiMatchesItsBaseline() throws IOException {
    boolean update = Boolean.getBoolean(UPDATE);
    List<String> changed = new ArrayList<>();
    for (PublishedModules.Artifact artifact : PublishedModules.ARTIFACTS) {
      List<JavaClass> types = new ArrayList<>();
      for (JavaClass type : PublishedModules.classes()) {
        if (PublishedModules.owner(type).filter(artifact::equals).isPresent()) {
          types.add(type);
        }
      }
      String dump = ApiDump.of(types);
      Path file = BASELINES.resolve(artifact.artifactId() + ".api");
      if (update) {
        Files.createDirectories(BASELINES);
        Files.writeString(file, dump, StandardCharsets.UTF_8);
        continue;
      }
      if (!Files.exists(file)) {
        changed.add(artifact.artifactId() + ": no baseline at " + file.toAbsolutePath());
        continue;
      }
      String baseline = Files.readString(file, StandardCharsets.UTF_8);
      if (!baseline.equals(dump)) {
        changed.add(artifact.artifactId() + " (" + file + "):\n" + difference(baseline, dump));
      }
    }
    if (!changed.isEmpty()) {
      fail("The public API differs from its baseline. If the change is meant, write the baseline with -D" + UPDATE
          + "=true (see this test's Javadoc), commit it, and say so in CHANGELOG.md.\n\n" + String.join("\n", changed));
    }
  }

  @Test
  void everyPublicTypeBelongsToAPublishedJar() {
    Set<String> orphans = new TreeSet<>();
    for (JavaClass type : PublishedModules.classes()) {
      if (ApiDump.reachable(type) && PublishedModules.owner(type).isEmpty()) {
        orphans.add(type.getName());
      }
    }
    assertEquals(Set.of(), orphans, "public types in no artifact of PublishedModules.ARTIFACTS");
  }

  /**
   * What changed, type by type: a type only the baseline has ({@code -}) or only the build has
   * ({@code +}), and within a type in both, its members likewise.
   */
  static String difference(String baseline, String current) {
    Map<String, Set<String>> before = types(baseline);
    Map<String, Set<String>> after = types(current);
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, Set<String>> type : before.entrySet()) {
      Set<String> now = after.get(type.getKey());
      if (now == null) {
        out.append("  - ").append(type.getKey()).append('\n');
        continue;
      }
      type.getValue().stream().filter(m -> !now.contains(m))
          .forEach(m -> out.append("  - ").append(type.getKey()).append(" :: ").append(m).append('\n'));
      now.stream().filter(m -> !type.getValue().contains(m))
          .forEach(m -> out.append("  + ").append(type.getKey()).append(" :: ").append(m).append('\n'));
    }
    after.keySet().stream().filter(t -> !before.containsKey(t))
        .forEach(t -> out.append("  + ").append(t).append('\n'));
    return out.toString();
  }

  private static Map<String, Set<String>> types(String dump) {
    Map<String, Set<String>> types = new LinkedHashMap<>();
    Set<String> members = null;
    for (String line : dump.lines().toList()) {
      if (line.endsWith(" {")) {
        members = new LinkedHashSet<>();
        types.put(line.substring(0, line.length() - 2), members);
      } else if (line.startsWith("  ") && members != null) {
        members.add(line.strip());
      }
    }
    return types;
  }
}
