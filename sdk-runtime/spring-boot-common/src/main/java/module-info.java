/**
 * What hookledger's Spring Boot 4 and Boot 3.5 starters share: {@code HookledgerProperties}, the
 * runtime on Spring's transactions, the customizer ({@code dev.hookledger.runtime.spring}), and the
 * configuration the starters import, read only by them and by Spring's reflection
 * ({@code dev.hookledger.runtime.spring.internal}).
 *
 * <p>Spring's jars are automatic modules, required here by the names their manifests declare. The
 * packages Boot 4 moved into jars of their own ({@code org.springframework.boot.jdbc} into
 * {@code spring.boot.jdbc}, {@code org.springframework.boot.sql.init} into {@code spring.boot.sql})
 * need no {@code requires} of either generation's name: a module that reads one automatic module
 * reads them all.
 */
module dev.hookledger.runtime.spring {
  requires transitive dev.hookledger.runtime;
  requires transitive spring.boot;
  requires transitive spring.context;
  // DataSize, in HookledgerProperties
  requires transitive spring.core;
  requires transitive spring.tx;
  requires spring.aop;
  requires spring.beans;
  requires spring.boot.autoconfigure;
  requires spring.jdbc;
  requires org.slf4j;
  // the filter and admin servlet in servlet web applications; the meters with Micrometer
  requires static jakarta.servlet;
  requires static micrometer.core;

  exports dev.hookledger.runtime.spring;
  exports dev.hookledger.runtime.spring.internal to
      dev.hookledger.runtime.spring.boot4,
      dev.hookledger.runtime.spring.boot3;
  // Spring binds the properties and builds the configuration, the failure analyzer and the AOT
  // processor (package-private, listed in spring.factories) reflectively
  opens dev.hookledger.runtime.spring to spring.beans, spring.boot, spring.core;
  opens dev.hookledger.runtime.spring.internal to spring.beans, spring.boot, spring.context, spring.core;

  // the AOT hints leave a library's own types (stripe-java's) to that library
  uses dev.hookledger.spi.LibraryParameters;
}
