package dev.hookledger.runtime.spring.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Objects;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;

/** What hookledger's failure analyzers, registered in {@code META-INF/spring.factories}, make of a start's failure. */
public final class FailureAnalyses {
  private FailureAnalyses() {}

  /** The analysis of {@code failure} by the first hookledger analyzer that explains it, as Boot asks them. */
  public static FailureAnalysis of(Throwable failure) {
    assertThat(failure).isNotNull();
    // Boot's own analyzers want the context's bean factory and environment: those that cannot be made here are skipped
    List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(FailureAnalyses.class.getClassLoader())
        .load(FailureAnalyzer.class, null, (type, implementation, cause) -> {});
    return analyzers.stream().filter(a -> a.getClass().getName().startsWith("dev.hookledger."))
        .map(a -> a.analyze(failure)).filter(Objects::nonNull).findFirst()
        .orElseThrow(() -> new AssertionError("no hookledger FailureAnalyzer explains " + failure));
  }
}
