package dev.hookledger.runtime.internal.ledger;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * SQL of the hot paths, built with jOOQ once at start and bound by hand per call: jOOQ's rendering
 * of each statement on each call was a fifth of the receive path's CPU time.
 */
public final class RenderedSql {
  private static final DSLContext RENDER = DSL.using(SQLDialect.POSTGRES, new Settings().withRenderFormatted(false));

  private RenderedSql() {}

  /** The jOOQ context that renders (and never executes) the hot statements. */
  public static DSLContext renderer() {
    return RENDER;
  }

  /**
   * The SQL of {@code query} with {@code ?} for each bind value.
   *
   * @throws IllegalStateException if it does not have exactly {@code binds} of them (a value meant
   *     to be inlined was bound, or the other way round): caught by every test that starts a runtime
   */
  public static String render(Query query, int binds) {
    String sql = RENDER.render(query);
    long found = sql.chars().filter(c -> c == '?').count();
    if (found != binds) {
      throw new IllegalStateException("expected " + binds + " bind values, rendered " + found + ": " + sql);
    }
    return sql;
  }

  /**
   * Binds a {@code timestamptz} parameter (rendered {@code cast(? as timestamp with time zone)}) as
   * its ISO-8601 text: the driver's own {@code OffsetDateTime} binding formats through a
   * {@code GregorianCalendar} per value, a visible share of the receive path in a profile.
   */
  static void setInstant(PreparedStatement ps, int p, Instant t) throws SQLException {
    if (t == null) {
      ps.setNull(p, Types.VARCHAR);
    } else {
      ps.setString(p, t.toString());
    }
  }
}
