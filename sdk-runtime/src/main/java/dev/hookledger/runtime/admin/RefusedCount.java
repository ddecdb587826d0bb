package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.RefusalReason;
import dev.hookledger.runtime.RefusedDeliveries;
import java.time.Instant;

/**
 * How many deliveries of one provider the runtimes on a ledger refused for one reason, summed over
 * the nodes that refused one in the window read (see {@link InboxAdmin#refusedCounts()}). Each node
 * counts since it started and writes its counts to the ledger every 2 s, so a count is at most that
 * old.
 *
 * @param provider a registered provider's id, or {@link RefusedDeliveries#UNKNOWN_PROVIDER}; never null
 * @param reason why they were refused; never null
 * @param count how many, at least 1
 * @param lastAt when the newest of them was refused; never null
 */
public record RefusedCount(String provider, RefusalReason reason, long count, Instant lastAt) {}
