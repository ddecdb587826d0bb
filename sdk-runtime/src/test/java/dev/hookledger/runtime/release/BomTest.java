package dev.hookledger.runtime.release;

import static dev.hookledger.runtime.release.Poms.child;
import static dev.hookledger.runtime.release.Poms.first;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * hookledger-bom has no parent (so that importing it moves no third-party version), hence nothing
 * keeps its version and its list in step with the reactor but this test: every module that is
 * published (all but the parent, the BOM itself, the samples and hookledger's own test helpers) must
 * be in it, at the project's version, and the BOM's version must be the reactor's.
 */
class BomTest {

  @Test
  void bomListsEveryPublishedModuleAtTheReactorVersion() throws Exception {
    Document bom = Poms.read(Poms.ROOT.resolve("sdk-runtime/bom/pom.xml"));
    String version = child(Poms.root().getDocumentElement(), "version");

    assertEquals(version, child(bom.getDocumentElement(), "version"), "hookledger-bom's version");

    Set<String> published = new TreeSet<>();
    for (Poms.Module module : Poms.modules()) {
      if (!module.deploySkipped() && !module.artifactId().equals("hookledger-bom")) {
        published.add(module.artifactId());
      }
    }
    Set<String> managed = new TreeSet<>();
    Element management = (Element) bom.getElementsByTagName("dependencyManagement").item(0);
    for (Node n = first(management, "dependencies").getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element dependency && dependency.getTagName().equals("dependency")) {
        assertEquals("${project.version}", child(dependency, "version"), child(dependency, "artifactId"));
        managed.add(child(dependency, "artifactId"));
      }
    }
    assertEquals(published, managed, "published modules vs hookledger-bom's dependencyManagement");
  }
}
