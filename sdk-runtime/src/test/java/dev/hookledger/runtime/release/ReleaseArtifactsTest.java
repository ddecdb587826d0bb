package dev.hookledger.runtime.release;

import static dev.hookledger.runtime.release.Poms.child;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What the release deploys: libraries only. A test-jar is not an artifact users should depend on and
 * would be deployed beside its module's jar by the release profile, so no module builds one: the
 * adapter contract kit is its own published jar, hookledger's own shared test helpers are modules that
 * are never deployed. (.ci/run also checks the staged bundle holds no {@code *-tests.jar}.)
 */
class ReleaseArtifactsTest {

  @Test
  void noModuleBuildsOrUsesATestJar() throws Exception {
    List<String> offenders = Poms.modules().stream()
        .filter(m -> m.text().contains("<goal>test-jar</goal>") || m.text().contains("<type>test-jar</type>"))
        .map(Poms.Module::path)
        .toList();
    assertEquals(List.of(), offenders, "modules that build or depend on a test-jar");
  }

  @Test
  void adapterContractKitIsAPublishedJarThatBringsJUnit() throws Exception {
    Poms.Module kit = Poms.modules().stream()
        .filter(m -> m.artifactId().equals("hookledger-adapter-testkit"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no module hookledger-adapter-testkit in the reactor"));
    assertFalse(kit.deploySkipped(), "hookledger-adapter-testkit must be published");
    assertFalse(kit.text().contains("<packaging>"), "hookledger-adapter-testkit must be a plain jar");
    // an adapter's test class extends AdapterContractTest: JUnit Jupiter must come with the kit
    NodeList dependencies = kit.pom().getDocumentElement().getElementsByTagName("dependency");
    boolean junitAtCompileScope = false;
    for (int i = 0; i < dependencies.getLength(); i++) {
      Element dependency = (Element) dependencies.item(i);
      if (child(dependency, "artifactId").equals("junit-jupiter")
          && dependency.getElementsByTagName("scope").getLength() == 0) {
        junitAtCompileScope = true;
      }
    }
    assertTrue(junitAtCompileScope, "hookledger-adapter-testkit must depend on junit-jupiter at compile scope");
  }

  @Test
  void everyUnpublishedModuleIsLeftOutOfTheCentralBundle() throws Exception {
    Set<String> skipped = new TreeSet<>();
    for (Poms.Module module : Poms.modules()) {
      if (module.deploySkipped()) {
        skipped.add(module.artifactId());
      }
    }
    Set<String> excluded = new TreeSet<>();
    NodeList lists = Poms.root().getElementsByTagName("excludeArtifacts");
    for (int i = 0; i < lists.getLength(); i++) {
      for (Node n = lists.item(i).getFirstChild(); n != null; n = n.getNextSibling()) {
        if (n instanceof Element artifact) {
          excluded.add(artifact.getTextContent().trim());
        }
      }
    }
    assertEquals(skipped, excluded, "modules with maven.deploy.skip vs the release profile's excludeArtifacts");
  }
}
