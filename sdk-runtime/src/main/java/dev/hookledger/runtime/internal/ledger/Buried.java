package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.WebhookEvent;

/**
 * An event a claim found with no attempt left (its last lease ran out while it was being processed)
 * and set {@code dead} instead of claiming it.
 *
 * @param attempts the attempts it had
 * @param reason its {@code last_error} now
 */
public record Buried(WebhookEvent event, int attempts, String reason) {}
