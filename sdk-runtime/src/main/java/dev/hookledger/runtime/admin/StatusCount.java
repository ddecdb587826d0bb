package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.EventStatus;

/**
 * How many events of one provider are in one status.
 *
 * @param provider the adapter id, never null
 * @param status the status, never null
 * @param events rows in that status
 * @param duplicates duplicate deliveries of those events that were refused (acknowledged, not processed)
 */
public record StatusCount(String provider, EventStatus status, long events, long duplicates) {}
