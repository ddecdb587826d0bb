package dev.hookledger.runtime.spring.boot4;

import dev.hookledger.runtime.spring.testing.SpringSettingsDoorContract;

/** {@link SpringSettingsDoorContract} on Spring Boot 4's binder. */
class SpringBoot4SettingsDoorTest extends SpringSettingsDoorContract {}
