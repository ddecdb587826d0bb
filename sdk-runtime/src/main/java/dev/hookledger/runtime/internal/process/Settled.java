package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.dispatch.TransactionEventContext;

/**
 * An event settled inside a transaction that has yet to commit; {@link #context()} holds its
 * {@code afterCommit} actions.
 */
public record Settled(WebhookEvent event, EventStatus status, int attempt, TransactionEventContext context) {}
