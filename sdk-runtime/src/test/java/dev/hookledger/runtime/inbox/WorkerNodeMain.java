package dev.hookledger.runtime.inbox;

import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.TestServer;
import jakarta.servlet.DispatcherType;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.ee10.servlet.FilterHolder;

/**
 * A hookledger node in a process of its own, for {@link NodeProcess}: a runtime on the ledger given
 * as the first argument, named by the second, behind the filter on a free port, which it prints as
 * {@code url <webhook URL>}. With a third argument {@code hang}, {@code job.hang} events block their
 * worker after their write, once it printed {@code started <event id>}; with {@code backfill}, it also
 * registers {@link BackfillAudit}, so that it can run backfills of it. Stops on {@code stop} or at
 * the end of its standard input.
 */
public final class WorkerNodeMain {
  private WorkerNodeMain() {}

  public static void main(String[] args) throws Exception {
    boolean hang = args.length > 2 && args[2].equals("hang");
    CountingHandler handler = new CountingHandler(args[1], hang ? WorkerNodeMain::hangForever : null);
    boolean backfill = args.length > 2 && args[2].equals("backfill");
    WebhookRuntime runtime = (backfill ? InboxFixture.node(args[0], handler, new BackfillAudit(args[1]))
        : InboxFixture.node(args[0], handler)).build();
    runtime.start();
    TestServer server = TestServer.start(context -> context.addFilter(new FilterHolder(new WebhookFilter(runtime)), "/*",
        EnumSet.of(DispatcherType.REQUEST)));
    System.out.println("url " + server.uri("/webhooks/testhook"));
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
      // waits for the test to say stop
    }
    server.close();
    runtime.close();
    System.exit(0);
  }

  private static void hangForever() {
    System.out.println("started job.hang");
    System.out.flush();
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
