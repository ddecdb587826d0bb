package dev.hookledger.samples.readme;

import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.stripe.StripeAdapter;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.jooq.DSLContext;

/** sdk-runtime/README.md's "Getting started" application, as written there (package added). */
public final class App {
  public record Invoice(String customer, long amount_paid) {}

  public static final class Billing {
    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object") Invoice invoice, DSLContext tx) {
      tx.execute("update account set paid = paid + ? where customer = ?", invoice.amount_paid(), invoice.customer());
    }
  }

  public static void main(String[] args) throws Exception {
    WebhookRuntime runtime = WebhookRuntime.builder()
        .jdbcUrl(System.getenv("DATABASE_URL"))        // jdbc:postgresql://localhost:5432/app?user=app&password=...
        .provider(new StripeAdapter(), Secrets.fromEnvironment("STRIPE_WEBHOOK_SECRET"))
        .handlers(new Billing())
        .build();
    runtime.migrate();                                 // creates or updates the ledger schema "hookledger"
    runtime.start();

    ServletContextHandler context = new ServletContextHandler("/");
    context.addFilter(new FilterHolder(new WebhookFilter(runtime)), "/webhooks/*", EnumSet.of(DispatcherType.REQUEST));
    Server server = new Server(Integer.parseInt(System.getenv().getOrDefault("PORT", "8080")));
    server.setHandler(context);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.stop();                                 // answers the requests in flight
      } catch (Exception e) {
        e.printStackTrace();
      } finally {
        runtime.close();                               // then lets the workers finish what they hold
      }
    }));
    server.start();
    System.out.println("listening on " + server.getURI());
    server.join();
  }
}
