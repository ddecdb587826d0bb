package dev.hookledger.runtime.spring.internal;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Ahead-of-time hints for what the runtime reads from the class path in a native image: the ledger's
 * DDL ({@code db/hookledger/*.sql}, applied by {@code hookledger.migrate}). The handlers' reflection is
 * {@link HandlerAotProcessor}'s, per bean.
 */
final class HookledgerRuntimeHints implements RuntimeHintsRegistrar {
  @Override
  public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
    hints.resources().registerPattern("db/hookledger/*.sql");
  }
}
