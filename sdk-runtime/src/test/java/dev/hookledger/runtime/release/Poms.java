package dev.hookledger.runtime.release;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** The reactor's POMs as the release tests read them: the root's modules, each with its text and DOM. */
final class Poms {

  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** One reactor module: its folder, its POM's text and DOM. */
  record Module(String path, String text, Document pom) {

    String artifactId() {
      return child(pom.getDocumentElement(), "artifactId");
    }

    /** Whether the module says it is never deployed (the samples, hookledger's own test helpers). */
    boolean deploySkipped() {
      return text.contains("<maven.deploy.skip>true</maven.deploy.skip>");
    }
  }

  private Poms() {}

  static Document root() throws Exception {
    return read(ROOT.resolve("pom.xml"));
  }

  static List<Module> modules() throws Exception {
    List<Module> out = new ArrayList<>();
    for (String module : texts(root().getDocumentElement(), "modules", "module")) {
      Path pom = ROOT.resolve(module).resolve("pom.xml");
      out.add(new Module(module, Files.readString(pom), read(pom)));
    }
    return out;
  }

  static Document read(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
  }

  static Element first(Element parent, String tag) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        return e;
      }
    }
    throw new AssertionError("no <" + tag + "> in <" + parent.getTagName() + ">");
  }

  static String child(Element parent, String tag) {
    return first(parent, tag).getTextContent().trim();
  }

  static List<String> texts(Element root, String container, String tag) {
    List<String> out = new ArrayList<>();
    for (Node n = first(root, container).getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        out.add(e.getTextContent().trim());
      }
    }
    return out;
  }
}
