/**
 * The hookledger runtime: {@code WebhookRuntime}, {@code WebhookFilter}, the ledger, the inbox and
 * outbox workers, {@code InboxAdmin}, the command line, the admin page and the Micrometer binding.
 * The internal packages are read only by hookledger's own modules (the Spring integration).
 *
 * <p>The servlet API, picocli and Micrometer are optional: a class path or module path without them
 * runs everything but the part that needs them (the filter and admin page, the command line, the
 * metrics binding). Handler parameters of a library's own types (stripe-java's, through
 * hookledger-stripe) come from {@code LibraryParameters} services, which the runtime names none of.
 */
module dev.hookledger.runtime {
  requires transitive dev.hookledger.sdk.api;
  requires transitive java.sql;
  requires transitive org.jooq;
  requires com.zaxxer.hikari;
  requires org.postgresql.jdbc;
  requires org.slf4j;
  requires static jakarta.servlet;
  requires static info.picocli;
  requires static micrometer.core;
  requires static micrometer.observation;
  // compile only (nothing of it is used): javac reads the JAXB annotations on jOOQ's Settings
  requires static jakarta.xml.bind;

  exports dev.hookledger.runtime;
  exports dev.hookledger.runtime.admin;
  exports dev.hookledger.runtime.admin.web;
  exports dev.hookledger.runtime.cli;
  exports dev.hookledger.runtime.micrometer;
  exports dev.hookledger.runtime.testkit;
  exports dev.hookledger.runtime.internal to dev.hookledger.runtime.spring;
  exports dev.hookledger.runtime.internal.ledger to dev.hookledger.runtime.spring;
  exports dev.hookledger.runtime.internal.receive to dev.hookledger.runtime.spring;
  exports dev.hookledger.runtime.internal.servlet to dev.hookledger.runtime.spring;
  exports dev.hookledger.runtime.internal.settings to dev.hookledger.runtime.spring;
  // picocli fills the commands' options reflectively
  opens dev.hookledger.runtime.cli to info.picocli;

  uses dev.hookledger.spi.ProviderAdapter;
  uses dev.hookledger.spi.ReplaySourceFactory;
  uses dev.hookledger.spi.LibraryParameters;
}
