package dev.hookledger.runtime.admin;

/**
 * How many events of one provider are in one status.
 *
 * @param provider the adapter id, never null
 * @param status {@code pending}, {@code processing}, {@code done}, {@code ignored}, {@code stale} or {@code dead}
 * @param events rows in that status
 * @param duplicates duplicate deliveries of those events that were refused (acknowledged, not processed)
 */
public record StatusCount(String provider, String status, long events, long duplicates) {}
