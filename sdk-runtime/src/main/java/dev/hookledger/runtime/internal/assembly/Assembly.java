package dev.hookledger.runtime.internal.assembly;

import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.RefusalReason;
import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.PoolSettings;
import dev.hookledger.runtime.internal.Pools;
import dev.hookledger.runtime.internal.background.BackgroundFailures;
import dev.hookledger.runtime.internal.background.NotificationListener;
import dev.hookledger.runtime.internal.background.Notifier;
import dev.hookledger.runtime.internal.background.PoolThreads;
import dev.hookledger.runtime.internal.background.Wakeup;
import dev.hookledger.runtime.internal.dispatch.Dispatcher;
import dev.hookledger.runtime.internal.door.Door;
import dev.hookledger.runtime.internal.inbox.BackfillWorker;
import dev.hookledger.runtime.internal.inbox.InboxSettings;
import dev.hookledger.runtime.internal.inbox.OwnerToken;
import dev.hookledger.runtime.internal.inbox.PoolHealth;
import dev.hookledger.runtime.internal.inbox.RollUpTimer;
import dev.hookledger.runtime.internal.inbox.WorkerPool;
import dev.hookledger.runtime.internal.ledger.AfterCommitFailureRows;
import dev.hookledger.runtime.internal.ledger.AppliedRows;
import dev.hookledger.runtime.internal.ledger.AttemptRows;
import dev.hookledger.runtime.internal.ledger.BackfillRows;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.EntityVersions;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.GroupCommit;
import dev.hookledger.runtime.internal.ledger.Lease;
import dev.hookledger.runtime.internal.ledger.LeaseClaimer;
import dev.hookledger.runtime.internal.ledger.LeaseRenewals;
import dev.hookledger.runtime.internal.ledger.Ledger;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.ledger.MinuteRollUp;
import dev.hookledger.runtime.internal.ledger.ProcessingRows;
import dev.hookledger.runtime.internal.ledger.RefusalCountRows;
import dev.hookledger.runtime.internal.ledger.SchemaMigrator;
import dev.hookledger.runtime.internal.ledger.ShadowRows;
import dev.hookledger.runtime.internal.outbox.Destinations;
import dev.hookledger.runtime.internal.outbox.EffectWriter;
import dev.hookledger.runtime.internal.outbox.OutboxPool;
import dev.hookledger.runtime.internal.process.AfterCommitFailureLog;
import dev.hookledger.runtime.internal.process.BackfillStep;
import dev.hookledger.runtime.internal.process.EntityVersionGuard;
import dev.hookledger.runtime.internal.process.EventHandOff;
import dev.hookledger.runtime.internal.process.EventProcessor;
import dev.hookledger.runtime.internal.process.HandlerDeadline;
import dev.hookledger.runtime.internal.process.Retries;
import dev.hookledger.runtime.internal.receive.HeaderCheck;
import dev.hookledger.runtime.internal.receive.ModeSelector;
import dev.hookledger.runtime.internal.receive.ProviderRegistry;
import dev.hookledger.runtime.internal.receive.Receiver;
import dev.hookledger.runtime.internal.refusal.RefusalFlusher;
import dev.hookledger.runtime.internal.refusal.RefusalLog;
import dev.hookledger.runtime.internal.refusal.RequestFacts;
import dev.hookledger.runtime.internal.servlet.BodyBudget;
import dev.hookledger.runtime.internal.servlet.ReadDeadline;
import dev.hookledger.runtime.internal.settings.ReceiveSettings;
import dev.hookledger.runtime.internal.settings.RuntimeSettings;
import dev.hookledger.spi.ReplaySink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns {@link RuntimeSettings} and {@link RuntimeParts} into the collaborators of one runtime and
 * owns their lifecycle, the worker pool's included: the one place that constructs them, so that the
 * facade keeps only its lifecycle states and nothing climbs back up to it (the receive path hands
 * events to the pool here). Thread-safe once built; {@link #start} and {@link #close} are called by
 * the facade under its own lock.
 */
public final class Assembly implements Door {
  private static final Logger log = LoggerFactory.getLogger(Assembly.class);

  /** The most rows one group commit writes; past this, concurrent deliveries share the next commit. */
  private static final int MAX_BATCH = 128;
  /**
   * The most body bytes one group commit writes: one statement binds every body of its batch, so
   * 128 rows of 25 MiB would be one 3 GiB statement. A larger row is written alone.
   */
  private static final long MAX_BATCH_BYTES = 8L << 20;
  /**
   * How long after its arrival a delivery waiting for the commit of its row is answered 503: GitHub
   * gives up on a delivery after 10 s from its request, and on a loaded machine the 503 itself takes
   * time to be written and read, so 2 s are left for that (10.03-10.10 s were seen when the wait was
   * 10 s from the queue). The row may still commit; the provider's retry is then a duplicate.
   */
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(8);

  private final RuntimeSettings settings;
  private final DataSource dataSource;
  private final HikariDataSource ownedPool;
  private final String name;
  private final WebhookListener listener;
  private final String owner = OwnerToken.create();
  private final CitusLedger citus;
  private final LeaseClaimer claimer;
  private final LeaseRenewals renewals;
  private final Notifier notifier;
  private final GroupCommit writer;
  private final EventProcessor processor;
  private final Receiver receiver;
  /** Deliveries this node was handed, the live traffic a backfill yields to. */
  private final AtomicLong received = new AtomicLong();
  private final HeaderCheck headerCheck;
  private final RefusalLog refusals;
  private final RefusalFlusher refusalFlusher;
  private final RollUpTimer rollUp;
  private final BodyBudget bodyBudget;
  private final ReadDeadline bodyReadDeadline;
  private final HandlerDeadline deadline;
  private final ShadowRows shadowRows;
  private volatile WorkerPool pool;
  private final DSLContext dsl;
  private final EventTable events;
  private final Set<String> handlerNames;
  private final BackfillRows backfillRows;
  private final BackfillStep backfillStep;
  private volatile BackfillWorker backfills;
  private final Destinations destinations;
  private final EffectWriter effects;
  private final Notifier effectsNotifier;
  private final com.fasterxml.jackson.databind.ObjectMapper mapper;
  private volatile OutboxPool outbox;
  /** What the background loops (workers, pollers, the listener, senders) survived, counted for health. */
  private final BackgroundFailures failures = new BackgroundFailures();
  private final Wakeup inboxWakeup = new Wakeup();
  private final Wakeup outboxWakeup = new Wakeup();
  /** The one listening session of this node, for the inbox's channel and the outbox's; null when neither runs. */
  private volatile NotificationListener notifications;
  private volatile Thread listening;

  private Assembly(RuntimeSettings s, RuntimeParts parts, ProviderRegistry providers, Dispatcher dispatcher,
      HikariDataSource ownedPool) {
    this.settings = s;
    this.ownedPool = ownedPool;
    this.dataSource = ownedPool != null ? ownedPool : parts.dataSource();
    this.name = "hookledger-" + s.schema();
    // the pool built here carries the session timeouts; a pool the application gives gets them per
    // transaction, and on Citus every pool does, in the form that reaches the workers (the ledger's
    // distribution is known once CitusLedger has read it, at start)
    AtomicReference<CitusLedger> knownCitus = new AtomicReference<>();
    BooleanSupplier distributed = () -> {
      CitusLedger c = knownCitus.get();
      return c != null && c.knownDistributed();
    };
    DSLContext dsl = parts.transactionProvider() != null && ownedPool == null
        ? LedgerDsl.on(parts.transactionalConnections(), s.deadlines(), distributed, parts.transactionProvider())
        : LedgerDsl.on(dataSource, s.deadlines(), ownedPool != null, distributed);
    this.deadline = new HandlerDeadline(s.deadlines().handler(), name + "-deadline");
    EventTable events = new EventTable(s.schema());
    // a failed afterCommit action is also counted in the ledger, for the operator's page
    this.listener = WebhookListener.composite(parts.listener(), new AfterCommitFailureLog(dsl,
        new AfterCommitFailureRows(s.schema())));
    this.citus = new CitusLedger(dsl, events);
    knownCitus.set(citus);
    this.claimer = new LeaseClaimer(dsl, events, citus);
    this.renewals = new LeaseRenewals(dsl, events, citus);
    this.shadowRows = new ShadowRows(dsl, events);
    this.notifier = new Notifier(dsl, s.schema());
    this.destinations = new Destinations(s.outbox().destinations(), s.outbox().handlers());
    this.mapper = parts.objectMapper();
    this.effects = new EffectWriter(s.schema(), destinations, mapper);
    this.effectsNotifier = new Notifier(dsl, s.schema(), "effects");
    ProcessingRows rows = new ProcessingRows(dsl, events, s.retryPolicy().maxAttempts(), citus);
    EntityVersionGuard guard = new EntityVersionGuard(new EntityVersions(s.schema(), citus), s.clock(),
        provider -> providers.find(provider).map(r -> r.adapter().entitiesStayInScope()).orElse(false));
    AppliedRows applied = new AppliedRows(s.schema(), citus);
    this.processor = new EventProcessor(dsl, rows, dispatcher, guard,
        new Retries(rows, s.retryPolicy(), listener), listener, deadline, applied, parts.tracing(), effects);
    this.dsl = dsl;
    this.events = events;
    this.handlerNames = Set.copyOf(dispatcher.names());
    this.backfillRows = new BackfillRows(events);
    this.backfillStep = new BackfillStep(dsl, events, backfillRows, applied,
        new AttemptRows(s.schema()), dispatcher, guard, deadline, s.retryPolicy(), owner,
        s.inbox().lease(), effects, citus);
    this.writer = GroupCommit.of(dataSource, events, citus::distributed, s.receive().ledgerWriters(), s.receive().queueCapacity(),
        MAX_BATCH, MAX_BATCH_BYTES, ANSWER_WITHIN, name);
    this.receiver = new Receiver(providers, dispatcher, new Ledger(dsl, events, writer), processor, new LocalHandOff(),
        new ModeSelector(s.mode(), s.inline()), s.clock(), listener, parts.tracing());
    this.headerCheck = new HeaderCheck(providers, listener);
    this.refusals = new RefusalLog(s.clock(), listener);
    // the CLI runs in another process: it reads this node's counts from the ledger, written every 2 s
    this.refusalFlusher = new RefusalFlusher(refusals, dsl, new RefusalCountRows(s.schema()), owner, providers.ids(), s.clock(),
        name + "-refusals");
    this.rollUp = new RollUpTimer(new MinuteRollUp(events), dsl, s.schema(), name + "-rollup");
    this.bodyBudget = BodyBudget.of(s.receive().maxInFlightBodyBytes());
    this.bodyReadDeadline = ReadDeadline.of(s.receive().bodyReadTimeout());
  }

  /**
   * Registers the providers and handlers and, for a JDBC URL, creates the pool. Does not connect.
   *
   * @throws IllegalArgumentException naming what does not fit
   * @throws dev.hookledger.HandlerRegistrationException naming the first bad {@code @OnEvent} method
   */
  public static Assembly assemble(RuntimeSettings settings, RuntimeParts parts) {
    ProviderRegistry registry = ProviderRegistry.of(withBodyLimits(parts.providers(), settings.receive()));
    if (settings.mode() == ProcessingMode.INLINE || !settings.inline().isEmpty()) {
      for (ProviderRegistry.Registration r : registry.all()) {
        if (!r.adapter().redeliversOnFailure()) {
          log.warn("INLINE processing is configured and provider '{}' is registered: it never redelivers on its"
              + " own, so an event of it whose INLINE handler fails is lost until redelivered by hand",
              r.adapter().id());
        }
      }
    }
    Dispatcher dispatcher = Dispatcher.of(parts.handlers(), registry.ids(), parts.objectMapper())
        .tracedBy(parts.tracing());
    if (dispatcher.size() == 0) {
      log.info("no @OnEvent handlers registered: every event will settle 'ignored'");
    }
    HikariDataSource pool = parts.jdbcUrl() == null ? null
        : Pools.create(parts.jdbcUrl(), parts.user(), parts.password(),
            settings.inbox().workers() + 8 + (settings.outbox().workers() > 0 ? 2 : 0),
            "hookledger-" + settings.schema(), settings.deadlines());
    return new Assembly(settings, parts, registry, dispatcher, pool);
  }

  private static List<ProviderRegistry.Registration> withBodyLimits(List<ProviderRegistry.Registration> providers,
      ReceiveSettings receive) {
    Set<String> ids = new TreeSet<>();
    providers.forEach(p -> ids.add(p.adapter().id()));
    for (String id : receive.maxBodyBytes().keySet()) {
      if (!ids.contains(id)) {
        throw new IllegalArgumentException("maxBodyBytes given for provider '" + id
            + "', which is not registered (registered: " + String.join(", ", ids) + ")");
      }
    }
    List<ProviderRegistry.Registration> out = new ArrayList<>();
    for (ProviderRegistry.Registration p : providers) {
      int limit = receive.maxBodyBytes().getOrDefault(p.adapter().id(), p.maxBodyBytes());
      out.add(new ProviderRegistry.Registration(p.adapter(), p.secrets(), limit));
      log.info("provider '{}' registered: {}, body limit {} bytes", p.adapter().id(),
          p.adapter().getClass().getName(), limit);
    }
    return out;
  }

  /** What the runtime was built with; never null. */
  public RuntimeSettings settings() {
    return settings;
  }

  /** The ledger's data source: the one given, or the pool built from the JDBC URL. */
  public DataSource dataSource() {
    return dataSource;
  }

  /** The ledger's schema, created or brought to this build's version (see {@code WebhookRuntime.migrate}). */
  public void migrate() {
    SchemaMigrator.migrate(LedgerDsl.on(dataSource), settings.schema());
  }

  /**
   * A node that writes rows of another shape than the ledger's (an old build on a migrated ledger, or
   * a new one before its migration) must not start. A ledger that cannot be read now is not refused:
   * this node starts and waits for the database, as it always has.
   */
  public void requireCurrentSchema() {
    try {
      SchemaMigrator.requireCurrent(LedgerDsl.on(dataSource), settings.schema());
    } catch (DataAccessException e) {
      log.warn("cannot read the version of ledger schema '{}' at start ({}); starting without checking it",
          settings.schema(), LedgerErrors.describe(e));
    }
  }

  /**
   * Starts the workers (none with {@code workers(0)} or in SHADOW), the ledger writers and the flusher
   * of refusal counts (in every mode: SHADOW counts refusals too).
   *
   * @return the number of workers started
   */
  public int start() {
    InboxSettings inbox = settings.inbox();
    sayClaimPath();
    // the pool exists before receive() can see the runtime started, so no accepted event misses it
    Map<String, Wakeup> channels = new LinkedHashMap<>();
    if (processesLocally()) {
      channels.put(notifier.channel(), inboxWakeup);
    }
    if (settings.outbox().workers() > 0) {
      channels.put(effectsNotifier.channel(), outboxWakeup);
    }
    NotificationListener n = channels.isEmpty() ? null : new NotificationListener(dataSource, channels, failures,
        processesLocally() ? NotificationListener.APPLICATION_NAME : NotificationListener.OUTBOX_APPLICATION_NAME);
    if (processesLocally()) {
      pool = WorkerPool.start(inbox, claimer, renewals, processor, notifier, inboxWakeup, n, failures, owner, listener,
          name);
    }
    if (pool != null && !handlerNames.isEmpty()) {
      backfills = BackfillWorker.start(dsl, events, backfillRows, backfillStep, handlerNames, owner, inbox.lease(),
          inbox.pollInterval(), received::get, name + "-backfill");
    }
    if (settings.outbox().workers() > 0) {
      outbox = OutboxPool.start(settings.outbox(), destinations, dsl, settings.schema(), citus, mapper,
          settings.clock(), listener, owner, outboxWakeup, failures, inbox.shutdownTimeout(), name);
      effects.onCommit(outbox::wake);
    } else {
      // no senders here: the other nodes' are told of each commit that enqueued effects
      effects.onCommit(effectsNotifier::wakeWorkersSoon);
    }
    if (n != null) {
      notifications = n;
      listening = PoolThreads.daemon(name + "-listener", n);
      listening.start();
    }
    writer.start();
    refusalFlusher.start();
    rollUp.start();
    PoolSettings.logInBackground(dataSource, name);
    return pool == null ? 0 : inbox.workers();
  }

  /** Says at start when claims go scope by scope (Citus); a ledger that cannot be read now is read at the first claim. */
  private void sayClaimPath() {
    try {
      if (citus.distributed()) {
        log.info("ledger schema '{}' is distributed by scope on Citus: claims and lease renewals run scope by scope,"
            + " each on one shard", settings.schema());
      }
    } catch (DataAccessException e) {
      log.debug("cannot read whether ledger schema '{}' is distributed at start ({}); the first claim reads it",
          settings.schema(), LedgerErrors.describe(e));
    }
  }

  /** Writes what is queued, drains the workers, stops the notifier and deadline, writes the last refusal
   * counts, closes a pool built here. */
  public void close() {
    // deliveries already queued are written (and their events handed to the pool) before it closes
    writer.close(settings.inbox().shutdownTimeout());
    BackfillWorker w = backfills;
    if (w != null) {
      w.close();
    }
    NotificationListener n = notifications;
    if (n != null) {
      n.stop(); // the pollers claim no more; each wait for notifications ends within 200 ms
    }
    WorkerPool p = pool;
    if (p != null) {
      p.close();
    }
    OutboxPool o = outbox;
    if (o != null) {
      o.close(); // after the workers: their last commits' effects were handed to it
    }
    Thread l = listening;
    if (l != null) {
      PoolThreads.stop(List.of(l), System.nanoTime() + settings.inbox().shutdownTimeout().toNanos());
    }
    notifier.close();
    effectsNotifier.close();
    deadline.close();
    rollUp.close();
    refusalFlusher.close(); // its last counts, while a pool built here is still open
    if (ownedPool != null) {
      ownedPool.close();
    }
  }

  /** The stable names of the registered {@code @OnEvent} methods, for backfills. */
  public Set<String> handlerNames() {
    return handlerNames;
  }

  /** This node's lease owner token, as the log names it. */
  public String owner() {
    return owner;
  }

  /**
   * Verifies, records and (by mode) processes one delivery that arrived at {@code arrivedNanos}
   * ({@link System#nanoTime()}); the facade checks its lifecycle first.
   */
  public Receipt receive(String providerId, InboundDelivery delivery, long arrivedNanos) {
    received.incrementAndGet(); // live traffic: the backfill worker yields to it
    return receiver.receive(providerId, delivery, arrivedNanos);
  }

  /** A new sink for a replay source's events. */
  public ReplaySink replaySink() {
    return receiver.replayRecorder(settings.mode() != ProcessingMode.SHADOW);
  }

  /** The worker threads' state; all zero and alive when no pool runs. */
  public PoolHealth threads() {
    WorkerPool p = pool;
    return p == null ? new PoolHealth(0, 0, true, true, 0) : p.health();
  }

  /** The refusals counted since the runtime was built. */
  public RefusedDeliveries refusedDeliveries() {
    return refusals.snapshot();
  }

  /** Deliveries waiting for a ledger writer now. */
  public int deliveriesWaitingForCommit() {
    return writer.waiting();
  }

  @Override
  public OptionalInt maxBodyBytes(String providerId) {
    return receiver.maxBodyBytes(providerId);
  }

  @Override
  public void checkHeaders(String providerId, InboundDelivery headersOnly) {
    headerCheck.check(providerId, headersOnly);
  }

  @Override
  public void rejectedTooLarge(String providerId) {
    receiver.rejected(providerId, RejectionReason.TOO_LARGE);
  }

  @Override
  public void refused(String provider, RefusalReason reason, RequestFacts facts) {
    refusals.refused(provider, reason, facts);
  }

  @Override
  public BodyBudget bodyBudget() {
    return bodyBudget;
  }

  @Override
  public ReadDeadline bodyReadDeadline() {
    return bodyReadDeadline;
  }

  @Override
  public void shadowFailed(EventKey key, String how) {
    try {
      if (shadowRows.forget(key)) {
        log.info("shadow mode: the existing endpoint {} for {}; its row is taken back, so that the provider's"
            + " redelivery is processed", how, key);
      } else {
        log.warn("shadow mode: the existing endpoint {} for {}; its row is kept, as a copy of the delivery arrived"
            + " meanwhile and may have succeeded", how, key);
      }
    } catch (DataAccessException e) {
      log.error("shadow mode: the existing endpoint {} for {}, and its row cannot be taken back ({}): after the"
          + " switch to enforcing, a redelivery is a duplicate; run its handlers with a forced retry", how, key,
          LedgerErrors.describe(e));
    }
  }

  private boolean processesLocally() {
    return settings.inbox().workers() > 0 && settings.mode() != ProcessingMode.SHADOW;
  }

  /**
   * Events this node's workers have room for are recorded leased to them and handed over from
   * memory; any other waits {@code pending}, and the workers of every runtime are notified, by the
   * notifier's own thread so that no acknowledgement waits for it.
   */
  private final class LocalHandOff implements EventHandOff {
    @Override
    public boolean processes() {
      return processesLocally();
    }

    @Override
    public boolean reserve() {
      WorkerPool p = pool;
      return p != null && p.reserveLocal();
    }

    @Override
    public void accept(Lease lease) {
      pool.acceptLocal(lease);
    }

    @Override
    public void unreserve() {
      pool.unreserveLocal();
    }

    @Override
    public void pendingRecorded() {
      notifier.wakeWorkersSoon();
    }

    @Override
    public String owner() {
      return owner;
    }

    @Override
    public Duration lease() {
      return settings.inbox().lease();
    }
  }
}
