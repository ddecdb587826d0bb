package dev.hookledger.runtime.internal.ledger;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A real data source that holds each connection a ledger write asks for until the test opens it, so
 * that the requests sent meanwhile queue up for one batch. Every other connection passes. A ledger
 * write is found by {@code GroupCommit.writeBatch} on the stack, whichever thread runs it: a writer
 * thread's today, a request thread's in a design that writes a lone delivery on its own thread
 * (issue 23's experiment, measured and not kept), so that the tests hold either.
 */
public final class WriterGate implements DataSource {
  private final DataSource target;
  private final CountDownLatch opened = new CountDownLatch(1);
  private final CountDownLatch held = new CountDownLatch(1);

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

  @Override
  public Connection getConnection() throws SQLException {
    if (opened.getCount() > 0 && aLedgerWrite()) {
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
