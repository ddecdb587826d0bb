package dev.hookledger.runtime.spring;

import dev.hookledger.runtime.spring.testing.SpringSettingsDoorContract;

/** {@link SpringSettingsDoorContract} on Spring Boot 3.5's binder. */
class SpringSettingsDoorTest extends SpringSettingsDoorContract {}
