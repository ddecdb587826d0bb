package dev.hookledger.samples.springboot;

import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.spring.WebhookRuntimeCustomizer;
import java.time.Duration;
import org.springframework.context.annotation.Bean;

/**
 * The examples of docs/spring-boot.md that are not the shop's own code, compiled on the starter: the
 * samples' {@code DocSnippetsTest} checks that each marked block of that page is made of these lines.
 */
final class SpringBootDocExamples {
  private SpringBootDocExamples() {}

  static final class Retries {
    @Bean
    WebhookRuntimeCustomizer retries() {
      // a change of the inbox group: its other options keep what the properties set (hookledger.workers, ...)
      return builder -> builder.inbox(i -> i.retryPolicy(RetryPolicy.builder().maxAttempts(5)
          .firstDelay(Duration.ofSeconds(30)).build()));
    }
  }
}
