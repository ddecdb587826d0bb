/**
 * Helpers for an application's own tests: {@link dev.hookledger.runtime.testkit.SignedDeliveries}
 * delivers provider-signed webhooks to a runtime (or over HTTP to its filter) and waits until their
 * handlers have settled them.
 */
package dev.hookledger.runtime.testkit;
