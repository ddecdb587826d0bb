package dev.hookledger.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.library.dependencies.SliceRule;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The published modules keep the rules of {@link BoundaryRules}: sdk-api, the adapter testkit,
 * sdk-runtime, the provider modules and the Spring Boot modules (common, Boot 4, Boot 3.5), all of
 * them on this module's class path and read as class files ({@link PublishedModules}).
 */
class ArchitectureTest {
  static final List<String> PROVIDERS = List.of("stripe", "github", "shopify");
  /** The packages of the runtime's engine, whose parts the assembly builds and wires. */
  static final String[] ENGINE = {"dev.hookledger.runtime.internal.ledger..", "dev.hookledger.runtime.internal.inbox..",
      "dev.hookledger.runtime.internal.process..", "dev.hookledger.runtime.internal.receive..",
      "dev.hookledger.runtime.internal.refusal..", "dev.hookledger.runtime.internal.dispatch..",
      "dev.hookledger.runtime.internal.door..", "dev.hookledger.runtime.internal.outbox..",
      "dev.hookledger.runtime.internal.background.."};

  private static JavaClasses published;

  @BeforeAll
  static void importPublishedModules() {
    published = published();
  }

  /** The main classes of every published module. */
  static JavaClasses published() {
    return PublishedModules.classes();
  }

  @Test
  void noPublicTypeMentionsAnInternalTypeInItsSignatures() {
    BoundaryRules.noInternalTypeInPublicSignatures().check(published);
  }

  /**
   * The cycle rule as every build runs it, with the edges it lets off by name. The runtime's package is
   * split into its facade and its vocabulary ({@link BoundaryRules#noPackageCycles}): the internal
   * packages' use of the vocabulary is no back-edge, their use of the facade is, but for the edges below.
   */
  static SliceRule cycleRule() {
    return BoundaryRules.noPackageCycles(Set.of("dev.hookledger.runtime.Destination", "dev.hookledger.runtime.Receive"),
            "dev.hookledger.runtime")
        // sdk-api's internal package is written in sdk-api's vocabulary, and reads a WebhookEvent's bytes and
        // tree through a private lookup (EventBytes, PayloadTree): its edges back are let off as a package
        .ignoreDependency(resideInAPackage("dev.hookledger.internal"), resideInAPackage("dev.hookledger"))
        // the one edge back between public packages: WebhookRuntime.admin(), the running runtime's door to
        // its ledger's admin, whose values speak the runtime's EventStatus
        .ignoreDependency(resideInAPackage("dev.hookledger.runtime"), resideInAPackage("dev.hookledger.runtime.admin"))
        // the front doors fill and build the public builder (the settings catalogue, web.xml's InitParams),
        // and RuntimeInternals, the one accessor, reads a builder's settings and a runtime's transactions
        // through the handle the builder installs: the facade's classes by name, from those two packages only
        .ignoreDependency(resideInAnyPackage("dev.hookledger.runtime.internal.settings",
                "dev.hookledger.runtime.internal.servlet"),
            DescribedPredicate.describe("WebhookRuntime or WebhookRuntimeBuilder",
                c -> c.getName().equals("dev.hookledger.runtime.WebhookRuntime")
                    || c.getName().equals("dev.hookledger.runtime.WebhookRuntimeBuilder")))
        // Destination, a value every outbox class uses, is vocabulary (named above) though it reads its text
        // form (Spring properties, web.xml) with the doors' SettingText; a debt: that parser belongs beside it
        .ignoreDependency(DescribedPredicate.describe("Destination",
                c -> c.getName().startsWith("dev.hookledger.runtime.Destination")),
            resideInAPackage("dev.hookledger.runtime.internal.settings"))
        // Receive, the receive path's settings group (vocabulary: named above), takes its body budget's
        // default and rule and its read deadline's from the servlet package that enforces them; a debt
        // like Destination's: those two rules belong in Receive, with the servlet package asking it
        .ignoreDependency(DescribedPredicate.describe("Receive",
                c -> c.getName().startsWith("dev.hookledger.runtime.Receive")),
            resideInAPackage("dev.hookledger.runtime.internal.servlet"));
  }

  @Test
  void packagesDependOnEachOtherWithoutCycles() {
    cycleRule().check(published);
  }

  /**
   * The facade ({@code dev.hookledger.runtime}) and every internal package ask the assembly for the
   * runtime's engine (ledger, inbox, processing, receiving, refusals, dispatch, door, outbox, and the
   * background loops' machinery the inbox and the outbox share); none of them
   * builds another package's part of it.
   */
  @Test
  void onlyTheAssemblyConstructsTheRuntimesCollaborators() {
    BoundaryRules.onlyTheAssemblyConstructsCollaborators("dev.hookledger.runtime.internal.assembly", ENGINE,
        Set.of(
            // values made per call: a parsed @OnEvent/inline pattern, one attempt's invocation and its context
            "dev.hookledger.runtime.internal.dispatch.TypePattern",
            "dev.hookledger.runtime.internal.dispatch.Invocation",
            "dev.hookledger.runtime.internal.dispatch.TransactionEventContext"),
        "dev.hookledger.runtime", "dev.hookledger.runtime.internal..").check(published);
  }

  @Test
  void theAdminWebUsesOnlyThePublicAdminApi() {
    BoundaryRules.usesOnlyPublicApi("dev.hookledger.runtime.admin.web..").check(published);
  }

  @Test
  void adaptersDoNotDependOnTheRuntime() {
    BoundaryRules.adaptersDoNotDependOnTheRuntime(
        "dev.hookledger.stripe..", "dev.hookledger.github..", "dev.hookledger.shopify..").check(published);
  }

  @Test
  void adaptersUseNoInternals() {
    BoundaryRules.adaptersUseNoInternals(
        "dev.hookledger.stripe..", "dev.hookledger.github..", "dev.hookledger.shopify..").check(published);
  }

  /**
   * Provider facts belong to adapters: stripe-java's types as handler parameters too, which
   * hookledger-stripe supplies as a {@code LibraryParameters} service that the dispatcher and the
   * Spring module's AOT hints ask without naming it.
   */
  @Test
  void theCoreNamesNoProvider() {
    BoundaryRules.coreNamesNoProvider(PROVIDERS, "dev.hookledger", "dev.hookledger.spi..",
        "dev.hookledger.internal..", "dev.hookledger.runtime..")
        .because("provider facts belong to adapters")
        .check(published);
  }
}
