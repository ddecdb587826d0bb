/**
 * Spring Boot support: add {@code dev.hookledger:hookledger-sdk-runtime} (and a provider module) to a
 * Spring Boot 3.5 application, set {@code spring.datasource.*} and
 * {@code hookledger.providers.<id>.secret}, and the application's beans' {@code @OnEvent} methods
 * receive that provider's webhooks at {@code /webhooks/<id>}, in transactions of the application's
 * own transaction manager: {@code JdbcTemplate}, JPA and {@code @Transactional} services called by a
 * handler commit or roll back with the ledger row. The auto-configuration classes are listed in
 * {@code META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}; every
 * Spring dependency is optional, so applications without Spring see none of it.
 */
package dev.hookledger.runtime.spring;
