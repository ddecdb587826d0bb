package dev.hookledger.runtime.spring;

import dev.hookledger.runtime.spring.testing.EffectHandlerDiscoveryContract;

/** {@link EffectHandlerDiscoveryContract} on Spring Boot 3.5. */
class EffectHandlerDiscoveryTest extends EffectHandlerDiscoveryContract {}
