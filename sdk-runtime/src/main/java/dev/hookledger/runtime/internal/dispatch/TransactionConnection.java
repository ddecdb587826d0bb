package dev.hookledger.runtime.internal.dispatch;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.Set;

/**
 * The transaction's JDBC connection as a handler sees it: {@code close()} does nothing (the
 * transaction is hookledger's to end, and a try-with-resources in a handler must not end it), and
 * the calls that would commit, roll back or leave the transaction are refused.
 */
final class TransactionConnection {
  private static final Set<String> REFUSED = Set.of("commit", "rollback", "setAutoCommit");

  private TransactionConnection() {}

  static Connection wrap(Connection target) {
    return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          String name = method.getName();
          if (name.equals("close") && method.getParameterCount() == 0) {
            return null;
          }
          if (name.equals("isClosed") && method.getParameterCount() == 0) {
            return target.isClosed();
          }
          // rollback(Savepoint) is the handler's own business; rollback() would end ours
          if (REFUSED.contains(name) && !(name.equals("rollback") && method.getParameterCount() == 1)) {
            throw new IllegalStateException("Connection." + name + "() is not allowed in an @OnEvent method: "
                + "the transaction belongs to hookledger, which commits it with the ledger row");
          }
          try {
            return method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
