package dev.hookledger.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.List;
import java.util.Optional;

/**
 * The published jars this module checks, each with the packages it owns. A package belongs to the
 * artifact whose root is its longest prefix ({@code dev.hookledger.runtime.spring.boot4} to the
 * Boot 4 starter, not the runtime), so a new package needs no entry unless it starts a new artifact.
 */
final class PublishedModules {
  private PublishedModules() {}

  /**
   * One published jar.
   *
   * @param artifactId its Maven artifact id, which names its API baseline file
   * @param roots the packages it owns, with every package under them
   */
  record Artifact(String artifactId, List<String> roots) {}

  static final List<Artifact> ARTIFACTS = List.of(
      new Artifact("hookledger-sdk-api", List.of("dev.hookledger")),
      new Artifact("hookledger-adapter-testkit", List.of("dev.hookledger.spi.testkit", "dev.hookledger.spi.testing")),
      new Artifact("hookledger-sdk-runtime", List.of("dev.hookledger.runtime")),
      new Artifact("hookledger-stripe", List.of("dev.hookledger.stripe")),
      new Artifact("hookledger-github", List.of("dev.hookledger.github")),
      new Artifact("hookledger-shopify", List.of("dev.hookledger.shopify")),
      new Artifact("hookledger-spring-boot-common", List.of("dev.hookledger.runtime.spring")),
      new Artifact("hookledger-spring-boot-starter", List.of("dev.hookledger.runtime.spring.boot4")),
      new Artifact("hookledger-spring-boot3-starter", List.of("dev.hookledger.runtime.spring.boot3")));

  /** A class of this module's test sources in the runtime's internal admin package: {@link BoundaryRulesDetectFlawsTest}'s. */
  static final String BACK_EDGE = "dev.hookledger.runtime.internal.admin.AdminBackEdge";

  private static JavaClasses withBackEdge;

  /** The main classes of every published jar (no test classes). */
  static JavaClasses classes() {
    return withBackEdge().that(DescribedPredicate.describe("published", c -> !c.getName().equals(BACK_EDGE)));
  }

  /**
   * The main classes of every published jar and {@link #BACK_EDGE}, imported once for every test class
   * of this module (an import of the whole tree costs seconds).
   */
  static synchronized JavaClasses withBackEdge() {
    if (withBackEdge == null) {
      withBackEdge = new ClassFileImporter()
          .withImportOption(location -> !location.contains("-tests.jar"))
          .withImportOption(location -> !location.contains("/test-classes/")
              || location.contains("/dev/hookledger/runtime/internal/admin/AdminBackEdge"))
          .importPackages("dev.hookledger");
    }
    return withBackEdge;
  }

  /** The artifact that owns {@code type}'s package, if any. */
  static Optional<Artifact> owner(JavaClass type) {
    String pkg = type.getPackageName();
    Artifact best = null;
    int bestLength = -1;
    for (Artifact a : ARTIFACTS) {
      for (String root : a.roots()) {
        if ((pkg.equals(root) || pkg.startsWith(root + ".")) && root.length() > bestLength) {
          best = a;
          bestLength = root.length();
        }
      }
    }
    return Optional.ofNullable(best);
  }
}
