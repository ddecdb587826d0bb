package dev.hookledger.runtime.spring;

import dev.hookledger.runtime.WebhookRuntimeBuilder;

/**
 * Customizes the {@link WebhookRuntimeBuilder} of the auto-configured runtime, as Boot's own
 * customizers do: every builder option is in reach (the retry policy, the clock, listeners, handler
 * instances that are not beans, ...). Customizer beans are applied in their {@code @Order} after the
 * {@code hookledger.*} properties, so a customizer wins over a property.
 *
 * <pre>{@code
 * @Bean
 * WebhookRuntimeCustomizer retries() {
 *   return builder -> builder.retryPolicy(RetryPolicy.builder().maxAttempts(5).firstDelay(Duration.ofSeconds(30)).build());
 * }
 * }</pre>
 *
 * <p>The ledger's {@code DataSource} and transactions stay Spring's: after the customizers, the
 * auto-configuration sets them again, so that handlers' {@code JdbcTemplate}, JPA and
 * {@code @Transactional} writes always commit with the ledger row.
 */
@FunctionalInterface
public interface WebhookRuntimeCustomizer {
  /** Changes {@code builder}; called once, on the thread that builds the runtime. */
  void customize(WebhookRuntimeBuilder builder);
}
