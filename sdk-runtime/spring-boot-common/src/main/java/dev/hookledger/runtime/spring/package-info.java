/**
 * Spring Boot support shared by hookledger's starters: add {@code dev.hookledger:hookledger-spring-boot-starter}
 * (Boot 4) or {@code hookledger-spring-boot3-starter} (Boot 3.5) and a provider module to a Spring Boot
 * application, set {@code spring.datasource.*} and {@code hookledger.providers.<id>.secret}, and the
 * application's beans' {@code @OnEvent} methods receive that provider's webhooks at
 * {@code /webhooks/<id>}, in transactions of the application's own transaction manager:
 * {@code JdbcTemplate}, JPA and {@code @Transactional} services called by a handler commit or roll back
 * with the ledger row. Public here: the properties ({@link dev.hookledger.runtime.spring.HookledgerProperties}),
 * {@link dev.hookledger.runtime.spring.WebhookRuntimeCustomizer} and
 * {@link dev.hookledger.runtime.spring.SpringTransactions}; the rest is under {@code .internal}.
 */
package dev.hookledger.runtime.spring;
