package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.WebhookEvent;
import java.time.Instant;

/**
 * One committed claim on one event: the runtime that holds it, the attempt it is (which fences it:
 * a takeover makes a new attempt), until when it holds, and the event itself.
 *
 * @param owner the claiming runtime's token
 * @param attempt the row's {@code attempts} after this claim; with {@code owner}, what the
 *     processing transaction checks before it commits
 * @param until when the lease runs out and another worker may take the event over
 */
public record Lease(EventKey key, String owner, int attempt, Instant until, WebhookEvent event) {}
