package dev.hookledger.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jooq.DSLContext;

/**
 * A {@link DataSource} that records each prepared statement run through it with its bind values,
 * so that a test can EXPLAIN exactly what a component sent (a plan test), never timing it. A
 * {@code SET} (a transaction's settings, nothing to plan) is not recorded.
 */
public final class StatementRecorder {
  private final DataSource target;
  private final Consumer<String> beforePrepare;
  private final List<String> statements = new ArrayList<>();

  public StatementRecorder(DataSource target) {
    this(target, sql -> { });
  }

  /**
   * @param beforePrepare called with each statement's SQL before it is prepared: a test's way to run
   *     something of its own between two statements of the component
   */
  public StatementRecorder(DataSource target, Consumer<String> beforePrepare) {
    this.target = target;
    this.beforePrepare = beforePrepare;
  }

  /** The data source to give the component under test. */
  public DataSource dataSource() {
    return proxy(DataSource.class, target, (t, m, args) -> {
      Object result = invoke(t, m, args);
      return result instanceof Connection c ? proxy(Connection.class, c, this::connection) : result;
    });
  }

  /** Each statement run since the last call, its bind values inlined as literals; then forgets them. */
  public synchronized List<String> drain() {
    List<String> out = List.copyOf(statements);
    statements.clear();
    return out;
  }

  /**
   * Asserts that each of {@code statements} (as {@link #drain()} gave them), EXPLAINed on {@code db},
   * finds the event row by a key index ({@code event_pkey} or {@code event_event_id_idx}) and reads
   * none of the partial indexes {@code notRead}: the plan trap of a keyed statement that also tests a
   * status, on a ledger whose statistics make that status's index look empty.
   */
  public static void assertEachFindsTheRowByItsKey(DSLContext db, List<String> statements, String... notRead) {
    for (String sql : statements) {
      String plan = String.join("\n", db.fetch("explain " + sql).getValues(0, String.class));
      for (String index : notRead) {
        assertFalse(plan.contains(index), sql + "\n" + plan);
      }
      assertTrue(plan.contains("event_pkey") || plan.contains("event_event_id_idx"), sql + "\n" + plan);
    }
  }

  private Object connection(Object c, Method m, Object[] args) throws Throwable {
    if (m.getName().equals("prepareStatement")) {
      beforePrepare.accept((String) args[0]);
    }
    Object result = invoke(c, m, args);
    if (result instanceof PreparedStatement ps && m.getName().equals("prepareStatement")) {
      String sql = (String) args[0];
      Map<Integer, Object> binds = new TreeMap<>();
      return proxy(PreparedStatement.class, ps, (s, pm, pargs) -> {
        if (pm.getName().startsWith("set") && pargs != null && pargs.length >= 2 && pargs[0] instanceof Integer i) {
          binds.put(i, pm.getName().equals("setNull") ? null : pargs[1]); // setNull's second is a type
        } else if (pm.getName().startsWith("execute")) {
          record(sql, binds);
        }
        return invoke(s, pm, pargs);
      });
    }
    return result;
  }

  private synchronized void record(String sql, Map<Integer, Object> binds) {
    if (sql.regionMatches(true, 0, "set ", 0, 4)) {
      return;
    }
    StringBuilder out = new StringBuilder();
    int n = 0;
    for (char ch : sql.toCharArray()) {
      if (ch == '?') {
        Object v = binds.get(++n);
        out.append(v == null ? "null" : v instanceof Number ? v.toString()
            : "'" + v.toString().replace("'", "''") + "'");
      } else {
        out.append(ch);
      }
    }
    statements.add(out.toString());
  }

  private static Object invoke(Object target, Method m, Object[] args) throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, Object target, InvocationHandler handler) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (p, m, args) -> handler.invoke(target, m, args));
  }
}
