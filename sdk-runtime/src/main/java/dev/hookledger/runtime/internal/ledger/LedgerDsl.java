package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.runtime.internal.Deadlines;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.TransactionContext;
import org.jooq.TransactionListener;
import org.jooq.TransactionProvider;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/** The jOOQ context every ledger statement runs through, the runtime's and the admin's alike. */
public final class LedgerDsl {
  static {
    // jOOQ prints its logo and a "tip of the day" on the first query: noise in an application's log
    // that no hookledger user asked for. Set before any jOOQ rendering class initialises; an explicit
    // -Dorg.jooq.no-logo=false (or no-tips) by the application is left alone.
    quiet("org.jooq.no-logo");
    quiet("org.jooq.no-tips");
  }

  private LedgerDsl() {}

  private static void quiet(String property) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, "true");
    }
  }

  /**
   * A PostgreSQL context on {@code dataSource} with jOOQ's execute logging off: its debug log prints
   * bind values and fetched rows, webhook bodies among them.
   */
  public static DSLContext on(DataSource dataSource) {
    return DSL.using(dataSource, SQLDialect.POSTGRES, new Settings().withExecuteLogging(false));
  }

  /**
   * As {@link #on(DataSource)}, and each transaction begins by setting {@code deadlines}' statement,
   * lock and idle-in-transaction timeouts for itself ({@code SET LOCAL}): for a data source the
   * application pools, whose sessions carry whatever the application set, so that the runtime's
   * transactions (the handlers' among them) are bounded all the same. One round trip per transaction,
   * saved where the sessions already carry them: the pool the runtime builds ({@code ownPool}), or
   * one the application says sets them on its connections ({@link Deadlines#fromPool()}).
   *
   * <p>On a ledger distributed by Citus ({@code distributed}, asked at each transaction's start, so it
   * must answer without a query) the pool the runtime built gets them per transaction too, in the form
   * that reaches the workers ({@link Deadlines#localSqlOnCitus()}): a session's settings stay on the
   * coordinator. An application's pool that sets them itself is left alone there as well: it would
   * have to set them on the workers' sessions too.
   */
  public static DSLContext on(DataSource dataSource, Deadlines deadlines, boolean ownPool,
      BooleanSupplier distributed) {
    DSLContext dsl = on(dataSource);
    if (deadlines.fromPool()) {
      return dsl;
    }
    String setLocal = deadlines.localSql(); // built once: the deadlines never change
    String setLocalOnCitus = deadlines.localSqlOnCitus();
    dsl.configuration().set(new TransactionListener() {
      @Override
      public void beginEnd(TransactionContext ctx) {
        boolean onCitus = distributed.getAsBoolean();
        if (ownPool && !onCitus) {
          return;
        }
        // on the transaction's own connection, prepared: through jOOQ's plain-SQL API this was a
        // quarter of a worker's CPU, and as a plain Statement the driver parsed it every time
        ctx.dsl().connection(c -> {
          if (onCitus) {
            try (Statement s = c.createStatement()) {
              s.execute(setLocalOnCitus);
            }
            return;
          }
          try (PreparedStatement ps = c.prepareStatement(setLocal)) {
            ps.executeQuery().close();
          }
        });
      }
    });
    return dsl;
  }

  /**
   * Runs {@code work} in a transaction of its own and commits it: the one way every ledger statement
   * outside a handler's transaction runs (lease renewal, reschedule, bury, release, the shadow
   * take-back, {@code pg_notify}, an operator's retry and prune). Bare, such a statement is correct
   * only on a connection in autocommit: on a pool handing out {@code autoCommit=false} connections (a
   * common Hibernate tuning) it is rolled back when the connection goes back to the pool, a state
   * transition lost with no error anywhere. An explicit transaction is right on any pool, and under an
   * application's transaction manager it is a new one ({@code REQUIRES_NEW}), so it never commits
   * whatever the calling thread has open. It also gets the deadlines of
   * {@link #on(DataSource, Deadlines, boolean, BooleanSupplier)}.
   *
   * @return what {@code work} returns, once committed
   */
  public static <T> T inOwnTransaction(DSLContext dsl, Function<DSLContext, T> work) {
    return dsl.transactionResult(cfg -> work.apply(cfg.dsl()));
  }

  /**
   * As {@link #on(DataSource, Deadlines, boolean, BooleanSupplier)} on an application's pool, with
   * transactions begun, committed and rolled back by
   * {@code transactions} (an application's transaction manager) instead of jOOQ on a connection of
   * its own: each statement then takes its connection from {@code dataSource}, which must hand out
   * the connection of that provider's transaction on the calling thread. The deadlines are still set
   * first thing in each transaction: jOOQ calls the listener once the provider has begun it.
   */
  public static DSLContext on(DataSource dataSource, Deadlines deadlines, BooleanSupplier distributed,
      TransactionProvider transactions) {
    DSLContext dsl = on(dataSource, deadlines, false, distributed);
    dsl.configuration().set(transactions);
    return dsl;
  }
}
