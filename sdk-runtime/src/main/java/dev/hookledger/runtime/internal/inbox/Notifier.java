package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import java.nio.charset.StandardCharsets;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes the workers of every runtime on the ledger with {@code pg_notify} on the schema's channel,
 * for events this runtime recorded but does not process itself. Best effort: a lost notification
 * only delays the event until the next poll. Thread-safe.
 */
public final class Notifier {
  private static final Logger log = LoggerFactory.getLogger(Notifier.class);
  /** PostgreSQL truncates identifiers, channel names among them, to 63 bytes. */
  private static final int MAX_CHANNEL_BYTES = 63;

  private final DSLContext dsl;
  private final String channel;

  public Notifier(DSLContext dsl, String schema) {
    this.dsl = dsl;
    this.channel = channel(schema);
  }

  /** The channel of a schema's ledger: {@code hookledger.<schema>}, cut to 63 bytes (schemas are ASCII). */
  static String channel(String schema) {
    String name = "hookledger." + schema;
    return name.getBytes(StandardCharsets.UTF_8).length <= MAX_CHANNEL_BYTES ? name : name.substring(0, MAX_CHANNEL_BYTES);
  }

  String channel() {
    return channel;
  }

  /** Sends one notification, in a statement of its own (committed at once). */
  public void wakeWorkers() {
    try {
      dsl.fetch("select pg_notify(?, '')", channel);
    } catch (DataAccessException e) {
      log.debug("cannot notify {}: {}; the next poll finds the events", channel, LedgerErrors.describe(e));
    }
  }
}
