package dev.hookledger.runtime.outbox;

import dev.hookledger.runtime.WebhookRuntime;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A node in a process of its own, for {@link OutboxCrashTest}: a runtime on the ledger of the first
 * argument with the destination {@code receipts} at the second (2 s timeout, 1 s to connect: leases
 * of 8 s), one sender; receives the number of {@code invoice.paid} events of the third argument,
 * prints {@code received}, and waits for {@code stop} on its standard input (or a kill).
 */
public final class OutboxNodeMain {
  private OutboxNodeMain() {}

  public static void main(String[] args) throws Exception {
    URI receipts = URI.create(args[1]);
    WebhookRuntime runtime = OutboxFixture.builder(args[0], receipts, new OutboxFixture.Receipts(0))
        .destination(OutboxFixture.receipts(receipts).timeout(Duration.ofSeconds(2)).connectTimeout(Duration.ofSeconds(1)))
        .outbox(o -> o.workers(1))
        .build();
    runtime.start();
    for (int i = 0; i < Integer.parseInt(args[2]); i++) {
      OutboxFixture.receive(runtime, "evt_crash_" + i);
    }
    System.out.println("received");
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
      // waits for the test to say stop
    }
    runtime.close();
    System.exit(0);
  }
}
