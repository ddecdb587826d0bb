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
      return builder -> builder.retryPolicy(RetryPolicy.builder().maxAttempts(5).firstDelay(Duration.ofSeconds(30)).build());
    }
  }
}
