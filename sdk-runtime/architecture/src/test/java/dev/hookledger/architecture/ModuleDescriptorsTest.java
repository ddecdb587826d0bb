package dev.hookledger.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.module.ResolvedModule;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every published jar is a named module (a {@code module-info.class}, not an
 * {@code Automatic-Module-Name}) that exports the packages meant for users to everyone and its
 * {@code internal} packages only to hookledger's own modules; and they resolve together on a real
 * module path made of this module's class path, as {@code java --module-path} reads it: Spring's jars
 * as the automatic modules their manifests name, JUnit's and Jackson's as the named modules they are.
 */
class ModuleDescriptorsTest {
  /** Each published artifact's module and the packages it exports to everyone, on purpose. */
  static final Map<String, Expected> MODULES = new LinkedHashMap<>();

  record Expected(String name, Set<String> exports) {}

  static {
    MODULES.put("hookledger-sdk-api", new Expected("dev.hookledger.sdk.api", Set.of("dev.hookledger",
        "dev.hookledger.spi", "dev.hookledger.spi.json", "dev.hookledger.spi.replay", "dev.hookledger.standardwebhooks")));
    MODULES.put("hookledger-adapter-testkit", new Expected("dev.hookledger.adapter.testkit",
        Set.of("dev.hookledger.spi.testkit", "dev.hookledger.spi.testing")));
    MODULES.put("hookledger-sdk-runtime", new Expected("dev.hookledger.runtime", Set.of("dev.hookledger.runtime",
        "dev.hookledger.runtime.admin", "dev.hookledger.runtime.admin.web", "dev.hookledger.runtime.cli",
        "dev.hookledger.runtime.micrometer", "dev.hookledger.runtime.testkit")));
    MODULES.put("hookledger-stripe", new Expected("dev.hookledger.stripe", Set.of("dev.hookledger.stripe")));
    MODULES.put("hookledger-github", new Expected("dev.hookledger.github", Set.of("dev.hookledger.github")));
    MODULES.put("hookledger-shopify", new Expected("dev.hookledger.shopify", Set.of("dev.hookledger.shopify")));
    MODULES.put("hookledger-spring-boot-common", new Expected("dev.hookledger.runtime.spring",
        Set.of("dev.hookledger.runtime.spring")));
    MODULES.put("hookledger-spring-boot-starter", new Expected("dev.hookledger.runtime.spring.boot4",
        Set.of("dev.hookledger.runtime.spring.boot4")));
    MODULES.put("hookledger-spring-boot3-starter", new Expected("dev.hookledger.runtime.spring.boot3",
        Set.of("dev.hookledger.runtime.spring.boot3")));
  }

  @Test
  void everyPublishedArtifactHasAModuleDescriptor() {
    assertEquals(PublishedModules.ARTIFACTS.stream().map(PublishedModules.Artifact::artifactId).toList(),
        List.copyOf(MODULES.keySet()), "a published artifact without an expected module here");
  }

  @Test
  void eachJarExportsItsPublicPackagesToAllAndItsInternalOnesOnlyToHookledger() {
    Configuration resolved = resolve();
    for (Expected expected : MODULES.values()) {
      ModuleDescriptor module = resolved.findModule(expected.name()).orElseThrow().reference().descriptor();
      assertFalse(module.isAutomatic(), expected.name() + " is an automatic module, not a module-info");
      Set<String> toAll = module.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
          .collect(Collectors.toCollection(TreeSet::new));
      assertEquals(new TreeSet<>(expected.exports()), toAll, expected.name() + " exports to everyone");
      for (ModuleDescriptor.Exports qualified : module.exports()) {
        if (qualified.isQualified()) {
          assertTrue(qualified.source().contains(".internal"), expected.name() + " exports " + qualified
              + ": a qualified export is for an internal package");
          assertTrue(qualified.targets().stream().allMatch(t -> t.startsWith("dev.hookledger.")),
              expected.name() + " exports " + qualified + " beyond hookledger's own modules");
        }
      }
    }
  }

  @Test
  void thePublishedModulesResolveTogetherAndReadWhatTheyUse() {
    Configuration resolved = resolve();
    // JUnit's API is what the contract kit is written in: its users read it through the kit
    assertReads(resolved, "dev.hookledger.adapter.testkit", "org.junit.jupiter.api");
    assertTrue(resolved.findModule("dev.hookledger.adapter.testkit").orElseThrow().reference().descriptor().requires()
        .stream().anyMatch(r -> r.name().equals("org.junit.jupiter.api")
            && r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE)));
    // Spring's jars are automatic modules, read by the names their manifests declare; reading one
    // reads them all, so the packages Boot 4 moved into jars of their own stay readable
    for (String spring : List.of("spring.boot", "spring.boot.autoconfigure", "spring.context", "spring.jdbc")) {
      assertTrue(resolved.findModule(spring).orElseThrow().reference().descriptor().isAutomatic(), spring);
      assertReads(resolved, "dev.hookledger.runtime.spring", spring);
    }
    assertReads(resolved, "dev.hookledger.runtime.spring.boot3", "dev.hookledger.runtime.spring");
    assertReads(resolved, "dev.hookledger.runtime.spring.boot4", "dev.hookledger.runtime");
    // no hookledger module requires stripe-java by the name its jar file happens to give it
    assertTrue(resolved.modules().stream().noneMatch(m -> m.name().startsWith("stripe")), "stripe-java resolved");
  }

  private static void assertReads(Configuration resolved, String module, String read) {
    ResolvedModule m = resolved.findModule(module).orElseThrow();
    assertTrue(m.reads().stream().anyMatch(r -> r.name().equals(read)), module + " does not read " + read);
  }

  /**
   * The published modules resolved on the JDK's modules over a module path of the jars and classes
   * directories of this JVM's class path that they require, directly or through each other (not the
   * whole class path: once one automatic module is resolved every observable one is, and this
   * module's test tools are no part of what a user's module path holds).
   */
  static Configuration resolve() {
    Map<String, Path> observable = new LinkedHashMap<>();
    for (String entry : classPath()) {
      try {
        for (ModuleReference found : ModuleFinder.of(Path.of(entry)).findAll()) {
          observable.putIfAbsent(found.descriptor().name(), Path.of(entry));
        }
      } catch (FindException e) {
        // a jar from which no module name can be derived: nothing the published modules require
      }
    }
    Set<String> roots = MODULES.values().stream().map(Expected::name).collect(Collectors.toSet());
    Map<String, Path> required = new LinkedHashMap<>();
    Deque<String> next = new ArrayDeque<>(roots);
    while (!next.isEmpty()) {
      String name = next.pop();
      if (required.containsKey(name) || !observable.containsKey(name)) {
        continue; // a JDK module, or one required static that a user may leave out
      }
      required.put(name, observable.get(name));
      ModuleFinder.of(observable.get(name)).find(name).orElseThrow().descriptor().requires().stream()
          .filter(r -> !r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC))
          .forEach(r -> next.add(r.name()));
    }
    for (String root : roots) {
      assertTrue(required.containsKey(root), root + " is not on the module path");
    }
    return ModuleLayer.boot().configuration()
        .resolve(ModuleFinder.of(required.values().toArray(Path[]::new)), ModuleFinder.ofSystem(), roots);
  }

  /** This JVM's class path; surefire runs tests from a manifest-only jar and puts the real one in a property. */
  private static List<String> classPath() {
    return Arrays.asList(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))
        .split(File.pathSeparator));
  }
}
