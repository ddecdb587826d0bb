package dev.hookledger.runtime.internal.inbox;

/**
 * A worker pool's threads at one moment.
 *
 * @param workers worker threads started
 * @param workersAlive worker threads still running
 * @param pollerAlive whether the poller thread is running
 * @param listenerConnected whether the notification listener listens right now
 * @param failuresSurvived failures the pool's loops caught and survived since start
 */
public record PoolHealth(int workers, int workersAlive, boolean pollerAlive, boolean listenerConnected,
    long failuresSurvived) {}
