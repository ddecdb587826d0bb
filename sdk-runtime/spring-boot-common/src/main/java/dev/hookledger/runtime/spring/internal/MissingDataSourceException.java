package dev.hookledger.runtime.spring.internal;

/**
 * The application has no {@code DataSource} bean for the ledger, or several and none {@code @Primary}:
 * the start fails, and {@link HookledgerFailureAnalyzer} says what to set.
 */
public final class MissingDataSourceException extends IllegalStateException {
  private static final long serialVersionUID = 1L;
  private final boolean several;

  MissingDataSourceException(boolean several) {
    super("hookledger needs the application's DataSource, and there is "
        + (several ? "more than one and none is @Primary" : "none")
        + ": set spring.datasource.url to the PostgreSQL database of the ledger");
    this.several = several;
  }

  /** Whether there are several {@code DataSource} beans (none primary) rather than none. */
  public boolean several() {
    return several;
  }
}
