/**
 * Reading JSON for an adapter: the few members of a body that identify an event
 * ({@link dev.hookledger.spi.json.JsonSelection}), its identity fields with rejections that never
 * quote the payload ({@link dev.hookledger.spi.json.JsonFields}), the exact bytes of events inside a
 * provider's API answer ({@link dev.hookledger.spi.json.RawJson}) and whole answers
 * ({@link dev.hookledger.spi.json.JsonDocuments}).
 */
package dev.hookledger.spi.json;
