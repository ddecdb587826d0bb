package dev.hookledger.runtime.admin;

/**
 * One version of the ledger's schema that {@link InboxAdmin#migrate()} would apply: what
 * {@code hookledger migrate --dry-run} prints. The same script is on the class path as
 * {@code db/hookledger/V<version>__<description>.sql}, for Flyway.
 *
 * @param version the version it brings the ledger to
 * @param description what it adds, as Flyway shows it ({@code status counts})
 * @param inTransaction true if it runs whole in one transaction; false if its statements run one at
 *     a time outside any (they cannot run in one: {@code CREATE INDEX CONCURRENTLY}), each safe to repeat
 * @param sql the statements as they would be sent, in the admin's schema
 */
public record SchemaMigration(int version, String description, boolean inTransaction, String sql) {}
