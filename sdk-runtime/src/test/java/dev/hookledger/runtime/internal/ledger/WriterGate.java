package dev.hookledger.runtime.internal.ledger;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A real data source that holds each connection a ledger write asks for (a writer thread's, or
 * the request thread's that writes a lone delivery itself) until the test opens it, so that the
 * requests sent meanwhile queue up for one batch. Every other connection passes.
 */
public final class WriterGate implements DataSource {
  private final DataSource target;
  private final CountDownLatch opened = new CountDownLatch(1);
  private final CountDownLatch held = new CountDownLatch(1);
  private final List<String> heldThreads = new CopyOnWriteArrayList<>();

  public WriterGate(DataSource target) {
    this.target = target;
  }

  public void open() {
    opened.countDown();
  }

  /** Waits until a writer is held at the gate. */
  public void awaitHeld() throws InterruptedException {
    if (!held.await(10, TimeUnit.SECONDS)) {
      throw new AssertionError("no ledger writer reached the gate within 10 s");
    }
  }

  /** The names of the threads held at the gate so far, in order. */
  public List<String> heldThreads() {
    return List.copyOf(heldThreads);
  }

  @Override
  public Connection getConnection() throws SQLException {
    if (opened.getCount() > 0 && aLedgerWrite()) {
      heldThreads.add(Thread.currentThread().getName());
      held.countDown();
      try {
        if (!opened.await(30, TimeUnit.SECONDS)) {
          throw new SQLException("the test never opened the gate");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted at the gate", e);
      }
    }
    return target.getConnection();
  }

  private static boolean aLedgerWrite() {
    return StackWalker.getInstance().walk(frames -> frames.anyMatch(f ->
        f.getClassName().equals(GroupCommit.class.getName()) && f.getMethodName().equals("writeBatch")));
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return target.getConnection(user, password);
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return target.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    target.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    target.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return target.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return target.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return target.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return target.isWrapperFor(iface);
  }
}
