package dev.hookledger.runtime.internal.outbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.background.BackgroundFailures;
import dev.hookledger.runtime.internal.background.PoolThreads;
import dev.hookledger.runtime.internal.background.Wakeup;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A runtime's outbox senders, the inbox's machinery turned outward: up to a fixed number of threads
 * sending effects from one queue, fed by a poller that claims due effects destination by destination
 * ({@link EffectClaimer}), woken at once by a commit on this node that enqueued effects, by a
 * notification on the outbox's channel (a commit on another node, which the runtime's one
 * {@link dev.hookledger.runtime.internal.background.NotificationListener} passes on through this pool's
 * {@link Wakeup}), by a sender freeing room, or when a rate-limited destination's next token is due, and
 * at least every poll interval, ±20 %. The pool holds at most {@code 2 × workers} effects (running or
 * queued); of a destination with a rate it claims only as many as idle senders start at once, since
 * the rate counts starts.
 *
 * <p>The sender threads start with the first effect the poller claims, not with the pool: a runtime
 * whose handlers send nothing (most of them, and every benchmark of the inbox alone) runs only the
 * poller, one cheap query on the partial index of waiting effects per poll interval. Any effect can
 * be sent by any node (an {@code HttpEffect} to an absolute URL needs no destination registered
 * here), so the poller runs whatever this node registered.
 *
 * <p>{@link #close} stops claiming and waits for the effects in flight up to the shutdown timeout;
 * an effect claimed and not sent keeps its lease, which runs out (then it is due again, its attempt
 * counted). Thread-safe.
 */
public final class OutboxPool {
  private static final Logger log = LoggerFactory.getLogger(OutboxPool.class);
  private static final int MAX_DESTINATIONS = 64;
  private static final ClaimedEffect STOP = new ClaimedEffect(null, null, null, null, null, null, null, null, null,
      null, null, null, null, null, 0, null, null);

  private final OutboxSettings settings;
  private final Destinations destinations;
  private final EffectClaimer claimer;
  private final GroupSettle settler;
  private final HttpSender http;
  private final TypedSender typed;
  private final EffectLeaseHeartbeat heartbeat;
  private final WebhookListener listener;
  private final String owner;
  private final Semaphore slots;
  private final BlockingQueue<ClaimedEffect> queue = new LinkedBlockingQueue<>();
  private final Wakeup wakeup;
  private final BackgroundFailures failures;
  /** Started with the first effect claimed (see the class's note); written by the poller, under this. */
  private final List<Thread> workers = new ArrayList<>();
  private final Thread poller;
  private final String name;
  private final Duration shutdownTimeout;
  private volatile boolean running = true;
  private boolean failing;

  private OutboxPool(OutboxSettings settings, Destinations destinations, DSLContext dsl, String schema,
      CitusLedger citus, ObjectMapper mapper, Clock clock, WebhookListener listener, String owner, Wakeup wakeup,
      BackgroundFailures failures, Duration shutdownTimeout, String name) {
    this.settings = settings;
    this.destinations = destinations;
    this.claimer = new EffectClaimer(dsl, schema, citus);
    this.settler = new GroupSettle(new EffectSettler(dsl, schema, owner, new Random()), citus);
    this.http = new HttpSender(clock);
    this.typed = new TypedSender(destinations, mapper);
    this.heartbeat = new EffectLeaseHeartbeat(dsl, schema, failures, name + "-outbox-heartbeat");
    this.listener = listener;
    this.owner = owner;
    this.shutdownTimeout = shutdownTimeout;
    this.wakeup = wakeup;
    this.failures = failures;
    this.name = name;
    this.slots = new Semaphore(2 * settings.workers());
    this.poller = PoolThreads.daemon(name + "-outbox-poller", this::poll);
  }

  /**
   * Starts the poller, which claims what is due at once; the senders start with the first effect it claims.
   *
   * @param citus whether the ledger is distributed: then each claim takes its effects scope by scope
   * @param wakeup the poller's signal: given by {@link #wake} and by the runtime's listener on the outbox's channel
   * @param failures what the pool's loops survive, counted with the runtime's other loops
   */
  public static OutboxPool start(OutboxSettings settings, Destinations destinations, DSLContext dsl, String schema,
      CitusLedger citus, ObjectMapper mapper, Clock clock, WebhookListener listener, String owner, Wakeup wakeup,
      BackgroundFailures failures, Duration shutdownTimeout, String name) {
    OutboxPool pool = new OutboxPool(settings, destinations, dsl, schema, citus, mapper, clock, listener, owner, wakeup,
        failures, shutdownTimeout, name);
    pool.poller.start();
    return pool;
  }

  /** Claims at once: effects were committed on this node. */
  public void wake() {
    wakeup.signal();
  }

  /** Whether the loops run: for the runtime's health. */
  public boolean healthy() {
    return poller.isAlive() && senders().stream().allMatch(Thread::isAlive);
  }

  /** The sender threads started so far: none until the first effect is claimed. */
  synchronized List<Thread> senders() {
    return List.copyOf(workers);
  }

  /** Stops claiming and waits for the effects in flight, up to the shutdown timeout. */
  public void close() {
    running = false;
    wakeup.signal();
    long deadline = System.nanoTime() + shutdownTimeout.toNanos();
    PoolThreads.stop(List.of(poller), deadline); // interrupted if it waits for a connection to a database that is gone
    List<Thread> started = senders();
    started.forEach(w -> queue.add(STOP));
    PoolThreads.join(started, deadline);
    heartbeat.close(); // a send still running keeps its lease, which runs out
  }

  /** Starts the sender threads, once: an effect was claimed. Called by the poller only. */
  private synchronized void startSenders() {
    if (!workers.isEmpty() || !running) {
      return; // closing: what was claimed keeps its lease, which runs out
    }
    for (int i = 1; i <= settings.workers(); i++) {
      Thread t = PoolThreads.daemon(name + "-sender-" + i, this::work);
      workers.add(t);
      t.start();
    }
    log.debug("{} outbox senders started: the first effect was claimed", settings.workers());
  }

  private void poll() {
    while (running) {
      Duration wait = PoolThreads.pollWait(settings.pollInterval());
      try {
        Duration soonest = claimWhatFits();
        if (soonest != null && soonest.compareTo(wait) < 0) {
          wait = soonest;
        }
      } catch (Throwable e) {
        failures.caught(Thread.currentThread().getName(), "claiming due effects", e);
      }
      try {
        wakeup.await(wait);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** @return the soonest a rate-limited destination has a token again; null if none waits for one */
  private Duration claimWhatFits() {
    Duration soonest = null;
    List<String> due;
    try {
      due = slots.availablePermits() == 0 ? List.of() : claimer.dueDestinations(MAX_DESTINATIONS);
    } catch (DataAccessException e) {
      failed(e);
      return null;
    }
    for (String name : due) {
      int room = slots.availablePermits();
      if (room == 0 || !running) {
        break;
      }
      if (!destinations.sends(name)) {
        continue;
      }
      Destination d = destinations.of(name);
      if (d.ratePerSecond() > 0) {
        // a token is a start: take one only for an effect an idle sender starts now. One queued
        // behind busy senders would start later, together with those the tokens refilled meanwhile
        // bought, and the destination would see more than its rate and burst
        room = idleSenders(room);
        if (room == 0) {
          continue;
        }
      }
      if (!slots.tryAcquire(room)) {
        continue;
      }
      EffectClaimer.Claim claim;
      try {
        claim = claimer.claim(d, owner, room);
      } catch (DataAccessException e) {
        slots.release(room);
        failed(e);
        return soonest;
      } catch (RuntimeException | Error e) {
        slots.release(room);
        throw e;
      }
      if (failing) {
        log.info("claiming due effects again");
        failing = false;
      }
      slots.release(room - claim.effects().size());
      claim.buried().forEach(b -> {
        log.warn("effect {} to {} is dead and waits for an operator", b, name);
        listener.effectAttempted(name, EffectStatus.DEAD, d.maxAttempts(), Duration.ZERO, null);
      });
      if (!claim.effects().isEmpty()) {
        startSenders();
        queue.addAll(claim.effects());
      }
      if (claim.nextToken() != null && (soonest == null || claim.nextToken().compareTo(soonest) < 0)) {
        soonest = claim.nextToken();
      }
    }
    return soonest;
  }

  /**
   * The senders that would take an effect at once, of {@code free} slots: the slots are twice the
   * senders, and each effect running or queued holds one. Only the poller fills the queue, so those
   * it sees idle stay idle until it hands them an effect.
   */
  private int idleSenders(int free) {
    return Math.max(0, free - settings.workers());
  }

  private void failed(DataAccessException e) {
    if (!failing) {
      log.warn("cannot claim due effects (ledger unavailable: {}); polling on", LedgerErrors.describe(e));
    }
    failing = true;
  }

  private void work() {
    while (true) {
      ClaimedEffect e;
      try {
        e = queue.take();
      } catch (InterruptedException ex) {
        return;
      }
      if (e == STOP) {
        return;
      }
      try {
        send(e);
      } catch (Throwable t) {
        // its lease runs out and it is sent again: at least once
        failures.caught(Thread.currentThread().getName(), "sending " + e, t);
      } finally {
        slots.release();
        wakeup.signal(); // room, and perhaps a destination's concurrency, freed
      }
    }
  }

  // the resource is a scope (a lease kept alive, a log context, a probe's connection): closing it is its use
  @SuppressWarnings("try")
  private void send(ClaimedEffect e) {
    Destination d = destinations.of(e.destination());
    long start = System.nanoTime();
    AttemptResult r;
    try (EffectLeaseHeartbeat.Renewal renewal = heartbeat.track(e)) {
      r = "typed".equals(e.kind()) ? typed.send(e) : http.send(e, d);
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    EffectSettler.Settled s;
    try {
      s = settler.settle(new EffectSettler.Attempt(e, d, r, took));
    } catch (DataAccessException ex) {
      log.warn("cannot record attempt {} of {} ({}: {}); its lease runs out and it is sent again", e.attempt(), e,
          r.outcome(), LedgerErrors.describe(ex));
      return;
    }
    if (s == null) {
      log.warn("attempt {} of {} lost its lease while it ran; the node that took it over decides", e.attempt(), e);
      return;
    }
    if (s.breakerOpened()) {
      log.warn("destination {}: circuit breaker opened after {} consecutive failures; its effects wait, a probe"
          + " follows in {} ms", d.name(), d.breakerFailures(), d.breakerProbeAfter().toMillis());
      listener.breakerChanged(d.name(), true);
    }
    if (s.breakerClosed()) {
      log.info("destination {}: circuit breaker closed", d.name());
      listener.breakerChanged(d.name(), false);
    }
    switch (s.status()) {
      case DONE -> log.debug("attempt {} of {} done", e.attempt(), e);
      case DEAD -> log.warn("{} is dead after attempt {}: {}", e, e.attempt(), r.error());
      default -> log.info("attempt {} of {} failed ({}); retried in {} ms", e.attempt(), e, r.error(),
          s.retryIn().toMillis());
    }
    listener.effectAttempted(d.name(), s.status(), e.attempt(), took,
        s.retryIn() == null ? null : Instant.now().plus(s.retryIn()));
  }
}
