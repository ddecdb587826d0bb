package dev.hookledger.runtime.release;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * hookledger-bom has no parent (so that importing it moves no third-party version), hence nothing
 * keeps its version and its list in step with the reactor but this test: every module that is
 * published (all but the parent, the BOM itself and the samples) must be in it, at the project's
 * version, and the BOM's version must be the reactor's.
 */
class BomTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void bomListsEveryPublishedModuleAtTheReactorVersion() throws Exception {
    Document parent = read(ROOT.resolve("pom.xml"));
    Document bom = read(ROOT.resolve("sdk-runtime/bom/pom.xml"));
    String version = child(parent.getDocumentElement(), "version");

    assertEquals(version, child(bom.getDocumentElement(), "version"), "hookledger-bom's version");

    Set<String> published = new TreeSet<>();
    for (String module : texts(parent.getDocumentElement(), "modules", "module")) {
      Document pom = read(ROOT.resolve(module).resolve("pom.xml"));
      String artifactId = child(pom.getDocumentElement(), "artifactId");
      boolean skipped = Files.readString(ROOT.resolve(module).resolve("pom.xml"))
          .contains("<maven.deploy.skip>true</maven.deploy.skip>");
      if (!skipped && !artifactId.equals("hookledger-bom")) {
        published.add(artifactId);
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

  private static Document read(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
  }

  private static Element first(Element parent, String tag) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        return e;
      }
    }
    throw new AssertionError("no <" + tag + "> in <" + parent.getTagName() + ">");
  }

  private static String child(Element parent, String tag) {
    return first(parent, tag).getTextContent().trim();
  }

  private static List<String> texts(Element root, String container, String tag) {
    List<String> out = new ArrayList<>();
    for (Node n = first(root, container).getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        out.add(e.getTextContent().trim());
      }
    }
    return out;
  }
}
