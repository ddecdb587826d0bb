package dev.hookledger.samples.app;

import java.sql.PreparedStatement;
import org.jooq.DSLContext;

/**
 * A sample handler's one fixed statement, run on the handler's transaction ({@code tx}'s connection)
 * as a JDBC prepared statement, the values bound in order.
 *
 * <p>Why not {@code tx.execute(sql, values...)}: jOOQ's plain-SQL path renders the statement on every
 * call and classifies it with regular expressions compiled anew each time; in a profile of
 * {@code bench} that was 57 % of the workers' CPU, more than hookledger's own work per event. A
 * statement whose text never changes needs none of it: the driver keys its server-side prepared
 * statements by the text, so after the first few calls on a connection only the values travel. The
 * same statement through jOOQ's DSL would be rendered per call too; {@code DSLContext.connection} is
 * jOOQ's own door to the transaction's JDBC connection for this.
 */
final class HandlerStatement {
  private final String sql;

  HandlerStatement(String sql) {
    this.sql = sql;
  }

  /** Runs the statement in {@code tx} with {@code values} bound as parameters 1, 2, ...; returns the update count. */
  int execute(DSLContext tx, Object... values) {
    return tx.connectionResult(c -> {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < values.length; i++) {
          ps.setObject(i + 1, values[i]);
        }
        return ps.executeUpdate();
      }
    });
  }
}
