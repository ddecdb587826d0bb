package dev.hookledger.runtime.internal.outbox;

import dev.hookledger.WebhookEvent;
import java.util.UUID;

/**
 * An effect as a handler's {@code send} enqueues it: the event and handler that sent it, its name
 * and key, and its own columns. What {@link EffectTable#ROW} reads each written column from.
 */
record NewEffect(WebhookEvent event, String handler, String name, UUID key, EffectWriter.Row row) {}
