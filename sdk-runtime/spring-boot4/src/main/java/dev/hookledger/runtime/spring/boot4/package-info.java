/**
 * The Spring Boot 4 auto-configurations of hookledger, listed in
 * {@code META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}: the runtime
 * ({@link dev.hookledger.runtime.spring.boot4.HookledgerAutoConfiguration}), its health indicator and its
 * meters, ordered after Boot 4's own {@code DataSource}, transaction and meter-registry auto-configurations.
 */
package dev.hookledger.runtime.spring.boot4;
