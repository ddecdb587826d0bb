package dev.hookledger.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The published modules keep the rules of {@link BoundaryRules}. Runs here because the samples
 * module has every published module on its class path; the samples themselves and every test
 * class are left out.
 */
class ArchitectureTest {
  static final List<String> PROVIDERS = List.of("stripe", "github", "shopify");
  /** The packages whose internal packages implement them (sdk-api's and the runtime's). */
  static final String[] VOCABULARIES = {"dev.hookledger", "dev.hookledger.runtime"};

  /** The packages of the runtime's engine, whose parts the assembly builds and wires. */
  static final String[] ENGINE = {"dev.hookledger.runtime.internal.ledger..", "dev.hookledger.runtime.internal.inbox..",
      "dev.hookledger.runtime.internal.process..", "dev.hookledger.runtime.internal.receive..",
      "dev.hookledger.runtime.internal.refusal..", "dev.hookledger.runtime.internal.dispatch..",
      "dev.hookledger.runtime.internal.door.."};

  private static JavaClasses published;

  @BeforeAll
  static void importPublishedModules() {
    published = published();
  }

  /** The main classes of sdk-api, the adapter testkit, sdk-runtime and the provider modules. */
  static JavaClasses published() {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar") && !location.contains("/test-classes/"))
        // hookledger's own test helpers (sdk-runtime/test-support), a module that is never published
        .withImportOption(location -> !location.contains("test-support"))
        .withImportOption(location -> !location.contains("/dev/hookledger/samples/")
            && !location.contains("/dev/hookledger/architecture/"))
        .importPackages("dev.hookledger");
  }

  @Test
  void noPublicTypeMentionsAnInternalTypeInItsSignatures() {
    BoundaryRules.noInternalTypeInPublicSignatures().check(published);
  }

  @Test
  void packagesDependOnEachOtherWithoutCycles() {
    BoundaryRules.noPackageCycles(VOCABULARIES)
        // the one edge back between public packages: WebhookRuntime.admin(), the running runtime's door to
        // its ledger's admin, whose values speak the runtime's EventStatus
        .ignoreDependency(resideInAPackage("dev.hookledger.runtime"), resideInAPackage("dev.hookledger.runtime.admin"))
        .check(published);
  }

  /**
   * The facade ({@code dev.hookledger.runtime}) and every internal package ask the assembly for the
   * runtime's engine (ledger, inbox, processing, receiving, refusals, dispatch, door); none of them
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

  /**
   * One package is let off, by name: {@code internal.dispatch.stripejava}, the optional binding of
   * stripe-java's own types to handler parameters, which the dispatcher finds as a
   * {@code LibraryParameters} service without naming it. Its place is the Stripe module, behind an
   * SPI of sdk-api's; until then it is the one exception, and nothing else of the core may name a
   * provider.
   */
  @Test
  void theCoreNamesNoProvider() {
    BoundaryRules.coreNamesNoProvider(PROVIDERS, "dev.hookledger", "dev.hookledger.spi..",
        "dev.hookledger.internal..", "dev.hookledger.runtime..")
        .because("provider facts belong to adapters")
        .check(published.that(JavaClass.Predicates.resideOutsideOfPackage(
            "dev.hookledger.runtime.internal.dispatch.stripejava..")));
  }
}
