package dev.hookledger.samples.webapp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.samples.app.SampleSchema;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import java.net.URI;
import java.time.Instant;
import java.util.UUID;
import javax.sql.DataSource;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;

/** An existing servlet application that adds hookledger in code, through {@link WebhooksInitializer}. */
class ProgrammaticWebAppTest {

  @Test
  void filterRegisteredInCodeAnswersSignedDeliveriesAndLeavesTheAppsRoutesAlone() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    DataSource ds = db.dataSource();
    SampleSchema.migrate(ds); // the application's own migration
    SampleSecrets secrets = SampleSecrets.generate();

    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addServlet(ExistingStatusServlet.class, "/status");
    context.addServletContainerInitializer(new WebhooksInitializer(ds, secrets));
    jetty.setHandler(context);
    jetty.start();
    try {
      WebhookClient client = new WebhookClient(URI.create("http://127.0.0.1:" + connector.getLocalPort()));
      String guid = UUID.randomUUID().toString();
      String body = SampleEvents.issueOpened("acme/shop", 5, 77, "Refund button missing", Instant.now());
      SampleSigners sign = new SampleSigners(secrets);
      assertEquals("200 accepted", client.send(sign.github("issues", guid, body)).toString());
      assertEquals("200 duplicate", client.send(sign.github("issues", guid, body)).toString());
      Await.until("the ticket is opened", () -> LedgerRows.number(ds, "select count(*) from sample.ticket") == 1);
      assertEquals("existing app: ok", client.get("/status"));
    } finally {
      jetty.stop();
    }
    assertEquals(1, LedgerRows.number(ds, "select count(*) from sample.ticket"));
  }
}
