package dev.hookledger.runtime;

/**
 * How many deliveries of one provider this node refused for one reason since it started.
 *
 * @param provider the provider id, or {@link RefusedDeliveries#UNKNOWN_PROVIDER}
 * @param reason why they were refused
 * @param count how many, at least 1
 */
public record RefusalCount(String provider, RefusalReason reason, long count) {}
