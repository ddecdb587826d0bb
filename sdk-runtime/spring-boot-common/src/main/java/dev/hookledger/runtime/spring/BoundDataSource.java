package dev.hookledger.runtime.spring;

import java.lang.reflect.Method;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The {@code DataSource} under whose key a transaction manager binds its connection: the ledger's
 * statements take their connection through it, so they run on exactly the connection the manager
 * bound, whatever wrappers sit between it and the pool. With the application's {@code DataSource}
 * instead, a manager over a {@code LazyConnectionDataSourceProxy} bound its connection under the
 * proxy, the ledger found none under the pool and took another: handler writes and the ledger row
 * committed in two transactions.
 *
 * @param dataSource the manager's {@code DataSource}, or the application's when the manager does not tell
 * @param known whether the manager told: only then is each transaction {@linkplain #requireBound checked}
 */
record BoundDataSource(DataSource dataSource, boolean known) {
  private static final Logger log = LoggerFactory.getLogger(BoundDataSource.class);

  /**
   * The {@code DataSource} {@code manager} binds, refusing one that is not {@code application}'s
   * (after unwrapping both).
   */
  static BoundDataSource of(PlatformTransactionManager manager, DataSource application) {
    Object managed;
    if (manager instanceof ResourceTransactionManager r && r.getResourceFactory() instanceof DataSource d) {
      managed = d;
    } else {
      Method getter;
      try {
        getter = manager.getClass().getMethod("getDataSource");
      } catch (NoSuchMethodException e) {
        log.warn("hookledger: cannot tell which DataSource the transaction manager {} manages; handlers' writes"
            + " join the ledger's transaction only if it binds connections of the application's DataSource",
            manager.getClass().getName());
        return new BoundDataSource(application, false);
      }
      try {
        managed = getter.invoke(manager);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("hookledger: cannot read the DataSource of " + manager.getClass().getName(), e);
      }
    }
    if (!(managed instanceof DataSource d) || unwrap(d) != unwrap(application)) {
      throw new IllegalStateException("hookledger: the transaction manager " + manager.getClass().getName()
          + (managed == null ? " manages no DataSource" : " manages another DataSource than the application's")
          + ", so a handler's JdbcTemplate, JPA and @Transactional writes would not join the transaction that settles"
          + " the ledger row: give it the application's DataSource");
    }
    if (d != application && !(application instanceof TransactionAwareDataSourceProxy)) {
      log.warn("hookledger: the transaction manager binds connections of {}, not of the DataSource bean ({}):"
          + " the ledger uses the manager's; a JdbcTemplate on the DataSource bean would not join its transactions",
          d.getClass().getName(), application.getClass().getName());
    }
    return new BoundDataSource(d, true);
  }

  /**
   * Fails unless the transaction just begun on this thread bound a connection under
   * {@link #dataSource}: the ledger would otherwise take a connection of its own and commit apart.
   *
   * @throws IllegalStateException naming the manager
   */
  void requireBound(PlatformTransactionManager manager) {
    if (known && !(TransactionSynchronizationManager.getResource(dataSource) instanceof ConnectionHolder h
        && h.getConnectionHandle() != null)) {
      throw new IllegalStateException("hookledger: the transaction of " + manager.getClass().getName()
          + " bound no connection of " + dataSource.getClass().getName() + ", so the ledger row would commit apart"
          + " from the handlers' writes: the attempt is failed instead");
    }
  }

  private static DataSource unwrap(DataSource d) {
    while (d instanceof DelegatingDataSource delegating && delegating.getTargetDataSource() != null) {
      d = delegating.getTargetDataSource();
    }
    return d;
  }
}
