package dev.hookledger.samples.webapp;

import java.nio.file.Path;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Deploys {@code src/main/webapp} (its {@code WEB-INF/web.xml}) in Jetty as a servlet container
 * would, on a free loopback port, and prints {@code listening on <url>}. Run as its own process by
 * {@link WebXmlAppTest}, because the filter reads its secrets from environment variables.
 */
public final class WebXmlApp {
  private WebXmlApp() {}

  public static void main(String[] args) throws Exception {
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    jetty.addConnector(connector);
    WebAppContext webapp = new WebAppContext();
    webapp.setContextPath("/");
    webapp.setBaseResourceAsPath(Path.of("src/main/webapp").toAbsolutePath());
    webapp.setParentLoaderPriority(true); // the classes come from this class path, not WEB-INF/lib
    webapp.setThrowUnavailableOnStartupException(true);
    jetty.setHandler(webapp);
    jetty.setStopAtShutdown(true);
    jetty.start();
    System.out.println("listening on http://127.0.0.1:" + connector.getLocalPort());
    jetty.join();
  }
}
