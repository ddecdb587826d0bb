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
 * A real data source that holds the first connection a ledger writer thread asks for until the
 * test opens it, so that the requests sent meanwhile queue up for one batch. Other threads pass.
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
    if (Thread.currentThread().getName().contains("ledger-writer") && opened.getCount() > 0) {
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
