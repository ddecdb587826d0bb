package dev.hookledger.runtime.internal.outbox;

import dev.hookledger.EffectHandler;

/**
 * One {@link EffectHandler} as the builder registered it: the class of the effects it delivers and
 * the destination they are counted, limited and paused by.
 */
public record EffectHandlerRegistration<T>(String destination, Class<T> type, EffectHandler<? super T> handler) {}
