package dev.hookledger.spi;

/**
 * What one replay did.
 *
 * @param fetched events (or deliveries) read from the provider's API
 * @param recorded events that were new to the ledger and are now waiting to be processed
 * @param alreadyReceived events the ledger already had; skipped
 * @param redelivered deliveries the provider was asked to send again (GitHub)
 * @param pages API pages read
 */
public record ReplayReport(int fetched, int recorded, int alreadyReceived, int redelivered, int pages) {}
