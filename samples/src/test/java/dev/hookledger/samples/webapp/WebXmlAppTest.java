package dev.hookledger.samples.webapp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.samples.app.SampleSchema;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.samples.testing.ChildJvm;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code web.xml} registration: {@code src/main/webapp} deployed in Jetty's {@code WebAppContext}
 * in its own process, configured only by its init-params and the environment.
 */
class WebXmlAppTest {
  @TempDir Path dir;

  @Test
  void filterDeclaredInWebXmlAnswersSignedDeliveriesAndLeavesTheAppsRoutesAlone() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    DataSource ds = db.dataSource();
    SampleSchema.migrate(ds); // the application's own migration
    SampleSecrets secrets = SampleSecrets.generate();
    Map<String, String> env = Map.of(
        "HOOKLEDGER_JDBC_URL", db.jdbcUrl(),
        "HOOKLEDGER_STRIPE_SECRET", secrets.stripe(),
        "HOOKLEDGER_GITHUB_SECRET", secrets.github(),
        "HOOKLEDGER_SHOPIFY_SECRET", secrets.shopify());

    try (ChildJvm app = ChildJvm.start(WebXmlApp.class, List.of(), env, dir)) {
      WebhookClient client = new WebhookClient(URI.create(app.awaitLine("listening on ")));
      String webhook = UUID.randomUUID().toString();
      String order = SampleEvents.order(9001L, "#9001", "12.00", "paid", Instant.now());
      SampleSigners sign = new SampleSigners(secrets);
      assertEquals("200 accepted", client.send(sign.shopify("orders/create", webhook, order)).toString());
      assertEquals("200 duplicate", client.send(sign.shopify("orders/create", webhook, order)).toString());
      Await.until("the order is stored",
          () -> LedgerRows.number(ds, "select count(*) from sample.shop_order where id = 9001") == 1);
      assertEquals("existing app: ok", client.get("/status"));
    }
  }
}
