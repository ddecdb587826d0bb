package dev.hookledger.runtime.spring.boot4;

import dev.hookledger.runtime.spring.testing.EffectHandlerDiscoveryContract;

/** {@link EffectHandlerDiscoveryContract} on Spring Boot 4. */
class EffectHandlerDiscoveryTest extends EffectHandlerDiscoveryContract {}
