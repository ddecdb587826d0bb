package dev.hookledger.runtime.internal.refusal;

import dev.hookledger.runtime.RefusalCount;
import dev.hookledger.runtime.RefusalReason;
import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.RefusedDelivery;
import dev.hookledger.runtime.WebhookListener;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place a refused delivery is recorded: counted by provider and reason, kept in a bounded
 * ring, told to the listener, and logged at WARN at most once a minute per provider and reason with
 * the count since the last line. Memory only, and bounded whatever a sender does: counts are keyed
 * by registered providers (every unknown path counts as one provider) and the closed set of
 * reasons, the ring holds {@link RefusedDeliveries#RECENT} entries of bounded size
 * ({@link RequestFacts}). A ledger write per refusal would let a forger fill the disk: the counts
 * alone reach the ledger through {@link RefusalFlusher}, at most one statement every 2 s. Thread-safe.
 */
public final class RefusalLog {
  private static final Logger log = LoggerFactory.getLogger(RefusalLog.class);
  /** At most one WARN line per provider and reason in this window. */
  static final Duration WARN_EVERY = Duration.ofMinutes(1);

  private final Clock clock;
  private final WebhookListener listener;
  private final Map<Key, Tally> tallies = new ConcurrentHashMap<>();
  private final Deque<RefusedDelivery> recent = new ArrayDeque<>(RefusedDeliveries.RECENT);

  public RefusalLog(Clock clock, WebhookListener listener) {
    this.clock = clock;
    this.listener = listener;
  }

  /**
   * Records one refusal.
   *
   * @param provider a registered provider's id, or {@link RefusedDeliveries#UNKNOWN_PROVIDER}
   * @param facts what may be kept of the request
   * @return the WARN line this refusal wrote, if it was the first of its provider and reason in
   *     {@link #WARN_EVERY}
   */
  public Optional<String> refused(String provider, RefusalReason reason, RequestFacts facts) {
    RefusedDelivery refused = new RefusedDelivery(clock.instant(), provider, reason, facts.remoteAddress(),
        facts.path(), facts.headers());
    synchronized (recent) {
      if (recent.size() == RefusedDeliveries.RECENT) {
        recent.removeLast();
      }
      recent.addFirst(refused);
    }
    Optional<String> line = tallies.computeIfAbsent(new Key(provider, reason), k -> new Tally()).add(refused);
    // no body and no header value in it: the reason, the count and where the last one came from
    line.ifPresent(log::warn);
    listener.refused(refused);
    return line;
  }

  /** What was refused since start; never null. */
  public RefusedDeliveries snapshot() {
    List<RefusalCount> counts = new ArrayList<>();
    tallies.forEach((k, t) -> counts.add(new RefusalCount(k.provider(), k.reason(), t.total())));
    counts.sort(Comparator.comparing(RefusalCount::provider).thenComparing(RefusalCount::reason));
    List<RefusedDelivery> last;
    synchronized (recent) {
      last = new ArrayList<>(recent);
    }
    return new RefusedDeliveries(counts, last);
  }

  /**
   * Each provider and reason's count since start and when the last was refused, for the flusher that
   * copies them to the ledger; never null.
   */
  public List<Total> totals() {
    List<Total> out = new ArrayList<>();
    tallies.forEach((k, t) -> out.add(t.total(k)));
    return out;
  }

  /** One provider and reason's count since start, and the time of the last. */
  public record Total(String provider, RefusalReason reason, long count, Instant lastAt) {}

  private record Key(String provider, RefusalReason reason) {}

  /** The count of one provider and reason, and the WARN line's rate limit. */
  private final class Tally {
    private long total;
    private long sinceLine;
    private Instant lastLine;
    private Instant last;

    synchronized Optional<String> add(RefusedDelivery refused) {
      total++;
      last = refused.at();
      sinceLine++;
      if (lastLine != null && Duration.between(lastLine, refused.at()).compareTo(WARN_EVERY) < 0) {
        return Optional.empty();
      }
      String line = sinceLine + " " + refused.provider() + (sinceLine == 1 ? " delivery" : " deliveries")
          + " refused (" + refused.reason() + ", answered " + refused.reason().httpStatus() + ")"
          + (lastLine == null ? "" : " in the last " + Duration.between(lastLine, refused.at()).toSeconds() + " s")
          + "; the last from " + (refused.remoteAddress().isEmpty() ? "an unknown address" : refused.remoteAddress())
          + " to " + refused.path();
      lastLine = refused.at();
      sinceLine = 0;
      return Optional.of(line);
    }

    synchronized long total() {
      return total;
    }

    synchronized Total total(Key k) {
      return new Total(k.provider(), k.reason(), total, last);
    }
  }
}
