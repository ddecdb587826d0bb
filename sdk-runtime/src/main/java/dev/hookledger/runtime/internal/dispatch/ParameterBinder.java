package dev.hookledger.runtime.internal.dispatch;

/** Supplies one argument of a handler method for one invocation. */
@FunctionalInterface
public interface ParameterBinder {
  Object bind(Invocation invocation);
}
