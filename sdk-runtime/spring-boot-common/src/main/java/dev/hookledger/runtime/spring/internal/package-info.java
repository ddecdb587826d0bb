/**
 * The starters' shared implementation: the runtime built from the properties, its lifecycle, handler
 * discovery, the servlet registrations, the meters, the failure analyzer. Not API: applications must
 * not import it.
 */
package dev.hookledger.runtime.spring.internal;
