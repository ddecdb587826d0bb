package dev.hookledger.runtime.internal.dispatch;

import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * One validated {@code @OnEvent} method of a class, before it is bound to an instance.
 *
 * @param description how messages name the method
 * @param name the stable name the ledger records it by ({@code @OnEvent(name)}, else {@code Class#method})
 * @param patterns the types it handles; at least one
 * @param provider the provider it is limited to; empty for any
 * @param skipStale whether the ordering guard may skip it
 * @param parameters one per parameter, validated; bound to a mapper when a runtime is built
 * @param handle {@code (Object receiver, Object[] args) void}
 */
record HandlerTemplate(String description, String name, String methodName, String parameterTypes, List<TypePattern> patterns,
    String provider, boolean skipStale, List<ParameterSpec> parameters, MethodHandle handle) {}
