package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.background.BackgroundFailures;
import dev.hookledger.runtime.internal.background.NotificationListener;
import dev.hookledger.runtime.internal.background.Notifier;
import dev.hookledger.runtime.internal.background.PoolThreads;
import dev.hookledger.runtime.internal.background.Wakeup;
import dev.hookledger.runtime.internal.ledger.Lease;
import dev.hookledger.runtime.internal.ledger.LeaseClaimer;
import dev.hookledger.runtime.internal.ledger.LeaseRenewals;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.process.EventProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A runtime's inbox workers: a fixed number of threads processing events from one queue, fed by
 * this runtime's own deliveries (recorded leased to this pool, and handed over from memory) and
 * by a {@link Poller} that claims what waits in the ledger, woken through its {@link Wakeup} by the
 * runtime's {@link NotificationListener}. The pool holds at most {@code workers + batchSize} events
 * at a time (running or queued), so that it never claims more than it can start before the leases
 * run out, and never holds bodies without bound.
 *
 * <p>{@link #close} stops claiming, gives back the leases of claimed events not yet started, and
 * waits for those in flight. Thread-safe.
 */
public final class WorkerPool {
  private static final Logger log = LoggerFactory.getLogger(WorkerPool.class);

  private final InboxSettings settings;
  private final LeaseClaimer claimer;
  private final Notifier notifier;
  private final Semaphore slots;
  private final BlockingQueue<Task> queue = new LinkedBlockingQueue<>();
  private final Wakeup wakeup;
  private final List<Thread> workers = new ArrayList<>();
  private final Poller poller;
  private final NotificationListener notifications;
  private final List<Thread> helpers = new ArrayList<>();
  private final BackgroundFailures failures;
  private final LeaseHeartbeat heartbeat;
  private volatile boolean backlog;
  private volatile boolean closing; // written under this

  private WorkerPool(InboxSettings settings, LeaseClaimer claimer, LeaseRenewals renewals, EventProcessor processor,
      Notifier notifier, Wakeup wakeup, NotificationListener notifications, BackgroundFailures failures, String owner,
      WebhookListener listener, String name) {
    this.settings = settings;
    this.claimer = claimer;
    this.notifier = notifier;
    this.wakeup = wakeup;
    this.notifications = notifications;
    this.failures = failures;
    this.slots = new Semaphore(settings.workers() + settings.batchSize());
    this.heartbeat = new LeaseHeartbeat(renewals, settings.lease(), settings.handlerTimeout(), failures,
        name + "-heartbeat");
    for (int i = 1; i <= settings.workers(); i++) {
      workers.add(PoolThreads.daemon(name + "-worker-" + i,
          new InboxWorker(queue, processor, this::taskDone, failures, heartbeat)));
    }
    this.poller = new Poller(this, claimer, settings, owner, listener, wakeup, failures);
    helpers.add(PoolThreads.daemon(name + "-poller", poller));
  }

  /**
   * Starts the workers and the poller (which claims what waits at once).
   *
   * @param wakeup the poller's signal, given by {@code notifications} on the schema's channel
   * @param notifications the runtime's listener, which the assembly runs: whether it listens is part of
   *     {@link #health}
   * @param failures what the pool's loops survived, counted with the runtime's other loops
   * @param name the threads' name prefix
   */
  public static WorkerPool start(InboxSettings settings, LeaseClaimer claimer, LeaseRenewals renewals,
      EventProcessor processor, Notifier notifier, Wakeup wakeup, NotificationListener notifications,
      BackgroundFailures failures, String owner, WebhookListener listener, String name) {
    WorkerPool pool = new WorkerPool(settings, claimer, renewals, processor, notifier, wakeup, notifications, failures,
        owner, listener, name);
    pool.workers.forEach(Thread::start);
    pool.helpers.forEach(Thread::start);
    return pool;
  }

  /**
   * Reserves room for one event this runtime is about to record leased to this pool.
   *
   * @return false if the pool is full or closing: the event is recorded {@code pending} instead
   */
  public boolean reserveLocal() {
    if (closing || !slots.tryAcquire()) {
      backlog = true;
      return false;
    }
    return true;
  }

  /**
   * Takes the lease of an event recorded leased to this pool, into room {@link #reserveLocal} gave,
   * to process it without reading it back. If the pool is closing, gives the lease back.
   */
  public void acceptLocal(Lease lease) {
    synchronized (this) {
      if (!closing) {
        queue.add(Task.leased(lease));
        return;
      }
    }
    slots.release();
    giveBack(List.of(Task.leased(lease)));
  }

  /** Gives back room {@link #reserveLocal} gave for an event that was not recorded leased to this pool. */
  public void unreserveLocal() {
    taskDone();
  }

  /**
   * Stops claiming, gives back the leases of events claimed but not started ({@code pending} again,
   * the attempt not counted, due now, other runtimes notified), then waits up to the shutdown
   * timeout for the events in flight. One still running then keeps its lease, which runs out.
   */
  public void close() {
    synchronized (this) {
      if (closing) {
        return;
      }
      closing = true;
    }
    poller.stop();
    long deadline = System.nanoTime() + settings.shutdownTimeout().toNanos();
    PoolThreads.stop(helpers, deadline); // a poller waiting for a connection to a database that is gone is interrupted
    List<Task> unstarted = new ArrayList<>();
    synchronized (this) {
      queue.drainTo(unstarted);
      workers.forEach(w -> queue.add(Task.STOP));
    }
    if (!unstarted.isEmpty() && !PoolThreads.within(helpers.get(0).getName() + "-give-back", () -> giveBack(unstarted))) {
      log.warn("gave up giving back {} claimed events not yet started after {} ms (ledger not answering); their leases"
          + " run out at the latest {} after the claim", unstarted.size(), PoolThreads.LAST_WRITE_WAIT.toMillis(),
          settings.lease());
    }
    PoolThreads.join(workers, deadline);
    // not interrupted: an event still running keeps its lease; once that runs out another worker
    // takes it over, and this one's commit is refused
    heartbeat.close();
    long running = workers.stream().filter(Thread::isAlive).count();
    if (running > 0) {
      log.warn("{} events still in flight after {} ms; once their leases run out other workers take them over",
          running, settings.shutdownTimeout().toMillis());
    }
  }

  /** The pool's threads as they are now: which are alive, whether it listens, what its loops survived. */
  public PoolHealth health() {
    int alive = (int) workers.stream().filter(Thread::isAlive).count();
    return new PoolHealth(workers.size(), alive, helpers.get(0).isAlive(), notifications.connected(), failures.count());
  }

  /**
   * Reserves room for up to {@code max} events.
   *
   * @return the room reserved, 0 if the pool is full
   */
  int reserve(int max) {
    // while every worker has an event queued behind it, claiming a few at a time would cost a claim
    // transaction per event or two: wait until half a batch fits (a worker freeing room wakes the poller)
    int min = queue.size() >= settings.workers() ? Math.max(1, max / 2) : 1;
    for (int n = Math.min(max, slots.availablePermits()); n >= min; n = Math.min(n - 1, slots.availablePermits())) {
      if (slots.tryAcquire(n)) {
        return n;
      }
    }
    backlog = true;
    return 0;
  }

  void unreserve(int n) {
    slots.release(n);
  }

  /** Queues claimed events in the room reserved for them; if the pool is closing, gives their leases back. */
  void accept(List<Lease> leases) {
    synchronized (this) {
      if (!closing) {
        leases.forEach(l -> queue.add(Task.leased(l)));
        return;
      }
    }
    giveBack(leases.stream().map(Task::leased).toList());
  }

  /** Whether events may be waiting beyond the pool's room, so that a freed slot should wake the poller. */
  void backlog(boolean waiting) {
    backlog = waiting;
  }

  private void taskDone() {
    slots.release();
    if (backlog) {
      wakeup.signal();
    }
  }

  private void giveBack(List<Task> unstarted) {
    if (unstarted.isEmpty()) {
      return;
    }
    List<Lease> leases = unstarted.stream().map(Task::lease).toList();
    try {
      int released = claimer.release(leases);
      log.info("gave back {} claimed events not yet started", released);
    } catch (DataAccessException e) {
      log.warn("cannot give back {} leases (ledger unavailable: {}); they run out at the latest {} after the claim",
          leases.size(), LedgerErrors.describe(e), settings.lease());
    }
    notifier.wakeWorkers();
  }
}
