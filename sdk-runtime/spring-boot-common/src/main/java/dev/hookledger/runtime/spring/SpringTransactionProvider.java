package dev.hookledger.runtime.spring;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Supplier;
import org.jooq.Transaction;
import org.jooq.TransactionContext;
import org.jooq.TransactionProvider;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;

/**
 * jOOQ transactions that are transactions of the application's {@link PlatformTransactionManager}:
 * the runtime's outermost transaction on a thread is always a new one ({@code REQUIRES_NEW}: an
 * event's transaction never joins, and never commits as part of, whatever the calling thread had
 * open), and a transaction a handler nests in it with jOOQ is a savepoint ({@code NESTED}). While one
 * is open, Spring binds its connection to the thread, so {@code JdbcTemplate}, a JPA
 * {@code EntityManager} and {@code @Transactional} services (propagation {@code REQUIRED}) called by a
 * handler all write in it. Spring's failures to begin, commit or roll back are rethrown as jOOQ's
 * {@link org.jooq.exception.DataAccessException}, which the runtime records as a failed attempt (a
 * handler that caught an exception a {@code @Transactional} service threw leaves the transaction
 * rollback-only: its commit then fails so). Thread-safe.
 */
final class SpringTransactionProvider implements TransactionProvider {
  private final PlatformTransactionManager manager;
  private final BoundDataSource bound;
  private final ThreadLocal<Deque<TransactionStatus>> open = ThreadLocal.withInitial(ArrayDeque::new);

  SpringTransactionProvider(PlatformTransactionManager manager, BoundDataSource bound) {
    this.manager = manager;
    this.bound = bound;
  }

  @Override
  public void begin(TransactionContext ctx) {
    Deque<TransactionStatus> stack = open.get();
    DefaultTransactionDefinition definition = new DefaultTransactionDefinition(stack.isEmpty()
        ? TransactionDefinition.PROPAGATION_REQUIRES_NEW : TransactionDefinition.PROPAGATION_NESTED);
    definition.setName("hookledger");
    TransactionStatus status = translated("begin", () -> manager.getTransaction(definition));
    if (stack.isEmpty()) {
      // checked per transaction: a manager that bound its connection elsewhere would have the ledger
      // commit apart from the handlers' writes; the attempt fails instead
      try {
        bound.requireBound(manager);
      } catch (IllegalStateException e) {
        translated("roll back", () -> {
          manager.rollback(status);
          return null;
        });
        throw new org.jooq.exception.DataAccessException(e.getMessage(), e);
      }
    }
    stack.push(status);
    ctx.transaction(new SpringTransaction(status));
  }

  @Override
  public void commit(TransactionContext ctx) {
    TransactionStatus status = closing(ctx);
    translated("commit", () -> {
      manager.commit(status);
      return null;
    });
  }

  @Override
  public void rollback(TransactionContext ctx) {
    TransactionStatus status = closing(ctx);
    // a commit that failed has already rolled back and completed the transaction
    if (!status.isCompleted()) {
      translated("roll back", () -> {
        manager.rollback(status);
        return null;
      });
    }
  }

  private TransactionStatus closing(TransactionContext ctx) {
    TransactionStatus status = ((SpringTransaction) ctx.transaction()).status;
    Deque<TransactionStatus> stack = open.get();
    stack.remove(status);
    if (stack.isEmpty()) {
      open.remove();
    }
    return status;
  }

  private static <T> T translated(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (TransactionException | DataAccessException e) {
      throw new org.jooq.exception.DataAccessException("Spring transaction failed to " + what + ": " + e.getMessage(), e);
    }
  }

  /** jOOQ's handle on one Spring transaction. */
  private static final class SpringTransaction implements Transaction {
    final TransactionStatus status;

    SpringTransaction(TransactionStatus status) {
      this.status = status;
    }
  }
}
