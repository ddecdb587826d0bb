/**
 * hookledger's Spring Boot 3.5 starter: the auto-configuration of the runtime on the application's
 * {@code DataSource} and transactions, the webhook filter, health and metrics. Spring's jars are
 * automatic modules, required by the names their manifests declare; the actuator and Micrometer are
 * optional.
 */
module dev.hookledger.runtime.spring.boot3 {
  requires transitive dev.hookledger.runtime.spring;
  requires spring.beans;
  requires spring.boot.autoconfigure;
  requires spring.jdbc;
  requires static spring.boot.actuator;
  requires static spring.boot.actuator.autoconfigure;
  requires static micrometer.core;

  exports dev.hookledger.runtime.spring.boot3;
  // Spring reads and builds the auto-configuration classes reflectively
  opens dev.hookledger.runtime.spring.boot3 to spring.beans, spring.boot, spring.context, spring.core;
}
