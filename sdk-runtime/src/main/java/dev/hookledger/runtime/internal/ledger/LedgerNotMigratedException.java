package dev.hookledger.runtime.internal.ledger;

/**
 * The ledger's schema is absent or older than this build needs, found when a runtime starts: the
 * start fails, since every delivery would be answered 503 until someone migrates (and GitHub does
 * not redeliver a 503). Its own type, so that a front door can say how to migrate there (the Spring
 * starters' failure analysis names {@code hookledger.migrate=always} and Flyway or Liquibase).
 */
public final class LedgerNotMigratedException extends IllegalStateException {
  private static final long serialVersionUID = 1L;
  private final String schema;
  private final int version;
  private final String reason;

  /** {@code reason} says what is wrong, {@code howTo} how to migrate, as the plain runtime is migrated. */
  LedgerNotMigratedException(String schema, int version, String reason, String howTo) {
    super(reason + howTo);
    this.schema = schema;
    this.version = version;
    this.reason = reason;
  }

  /** What is wrong, without how to migrate: for a front door that says how to migrate there. */
  public String reason() {
    return reason;
  }

  /** The schema the runtime was built for. */
  public String schema() {
    return schema;
  }

  /** The version found: 0 if the ledger's tables do not exist at all. */
  public int version() {
    return version;
  }
}
