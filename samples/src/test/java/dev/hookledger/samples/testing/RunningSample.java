package dev.hookledger.samples.testing;

import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.server.SampleApp;
import dev.hookledger.samples.server.SampleDatabase;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The sample app as {@code serve} runs it, on a fresh test database and a free port, with a client,
 * the signers for its secrets, and ways to read its ledger and state. Close it after each test.
 */
public final class RunningSample implements AutoCloseable {
  private static final Set<String> SETTLED = Set.of("done", "ignored", "stale", "dead");

  public final SampleApp app;
  public final WebhookClient client;
  public final SampleSigners sign;
  public final SampleSecrets secrets;

  public RunningSample() {
    this(UnaryOperator.identity());
  }

  /** The sample app with its runtime's builder adjusted by {@code tuning} (a retry policy, say). */
  public RunningSample(UnaryOperator<dev.hookledger.runtime.WebhookRuntimeBuilder> tuning) {
    secrets = SampleSecrets.generate();
    app = SampleApp.start(SampleDatabase.external(TestDatabase.create().jdbcUrl()), secrets, "127.0.0.1", 0, tuning);
    client = new WebhookClient(app.uri());
    sign = new SampleSigners(secrets);
  }

  /** Waits until the ledger has settled the event with this id. */
  public void awaitSettled(String eventId) {
    Await.until(eventId + " settled", () -> SETTLED.contains(status(eventId)));
  }

  /** The ledger status of the event with this id, or {@code absent}. */
  public String status(String eventId) {
    return LedgerRows.event(app.dataSource(), SampleApp.LEDGER_SCHEMA, eventId)
        .map(row -> (String) row.get("status")).orElse("absent");
  }

  /** How many events the ledger holds. */
  public long events() {
    return LedgerRows.events(app.dataSource(), SampleApp.LEDGER_SCHEMA);
  }

  /** The business state, as {@code GET /sample/state.json} shows it. */
  public SampleState state() {
    return SampleState.fromJson(client.get("/sample/state.json"));
  }

  @Override
  public void close() {
    app.close();
  }
}
