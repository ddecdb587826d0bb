package dev.hookledger.runtime.inbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import org.jooq.DSLContext;

/**
 * Adds one to {@code effect_count} per event, in the processing transaction: the effect is not
 * idempotent, so a count of 2 would show an event processed twice. Used in this JVM and in the
 * separate node process ({@link WorkerNodeMain}).
 */
public final class CountingHandler {
  private final String node;
  private final Runnable hang;

  /**
   * @param node written to {@code processed_by}
   * @param hang what {@code job.hang} does after its write (blocks, in the node that is to be killed); null for nothing
   */
  public CountingHandler(String node, Runnable hang) {
    this.node = node;
    this.hang = hang;
  }

  /** Counts; fails its first attempt when the payload says {@code "failFirst": true}. */
  @OnEvent("job.count")
  void count(JsonNode payload, EventContext context, DSLContext tx) {
    increment(context, tx);
    if (payload.path("failFirst").asBoolean() && context.attempt() == 1) {
      throw new IllegalStateException("fails on its first attempt");
    }
  }

  @OnEvent("job.hang")
  void hang(EventContext context, DSLContext tx) {
    increment(context, tx);
    if (hang != null) {
      hang.run();
    }
  }

  private void increment(EventContext context, DSLContext tx) {
    tx.execute("insert into effect_count (event_id, n, processed_by) values (?, 1, ?)"
        + " on conflict (event_id) do update set n = effect_count.n + 1, processed_by = excluded.processed_by",
        context.event().eventId(), node);
  }
}
