package dev.hookledger.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each rule of {@link BoundaryRules} fails on a deliberately broken fixture (in this module's test
 * sources, under {@code architecture.fixture} and, for the cycle, the back-edge this release
 * removed, put back in {@code runtime.internal.admin}), so that {@link ArchitectureTest} passing
 * means something.
 */
class BoundaryRulesDetectFlawsTest {
  private static final String BACK_EDGE = PublishedModules.BACK_EDGE;

  @Test
  void anInternalTypeInAPublicSignatureIsReportedWhereverItAppears() {
    EvaluationResult result = BoundaryRules.noInternalTypeInPublicSignatures()
        .evaluate(fixtures("dev.hookledger.architecture.fixture.leak"));

    String leaky = "dev.hookledger.architecture.fixture.leak.Leaky";
    String hidden = "dev.hookledger.architecture.fixture.leak.internal.Hidden";
    assertEquals(List.of(
        leaky + " hidden(...) returns " + hidden,
        leaky + " take(...) takes " + hidden,
        leaky + "$Extending extends " + hidden), violations(result));
  }

  /** The published modules and the back-edge ({@link PublishedModules#withBackEdge()}). */
  private static JavaClasses withBackEdge;

  @BeforeAll
  static void importWithTheBackEdge() {
    withBackEdge = PublishedModules.withBackEdge();
  }

  @Test
  void theAdminBackEdgeIsACycleAgain() {
    assertTrue(withBackEdge.contain(BACK_EDGE));

    EvaluationResult result = ArchitectureTest.cycleRule()
        .evaluate(withBackEdge);

    assertTrue(result.hasViolation());
    String report = result.getFailureReport().toString();
    assertTrue(report.contains("Slice hookledger.runtime.internal.admin"), report);
    assertTrue(report.contains("AdminBackEdge.schemaOf(dev.hookledger.runtime.admin.InboxAdmin)"), report);
  }

  @Test
  void theCycleRuleHoldsOnThePublishedModulesWithoutTheBackEdge() {
    JavaClasses published = PublishedModules.classes();
    assertFalse(published.contain(BACK_EDGE));
    assertTrue(published.contain("dev.hookledger.runtime.WebhookRuntime"), "the runtime is among them");
    EvaluationResult result = ArchitectureTest.cycleRule()
        .evaluate(published);
    assertFalse(result.hasViolation(), result.getFailureReport().toString());
  }

  @Test
  void aFacadeThatBuildsACollaboratorIsReportedByConstructorAndByFactory() {
    String fixture = "dev.hookledger.architecture.fixture.assembly";
    EvaluationResult result = BoundaryRules.onlyTheAssemblyConstructsCollaborators(fixture + ".internal.assembly",
            new String[] {fixture + ".internal.engine.."}, Set.of(), fixture, fixture + ".internal..")
        .evaluate(fixtures(fixture));

    String facade = fixture + ".Facade";
    String worker = fixture + ".internal.engine.Worker";
    assertEquals(List.of(
        facade + " constructs " + worker + ".start(...) in " + facade + ".<init>()",
        facade + " constructs new " + worker + " in " + facade + ".<init>()"), violations(result));
  }

  @Test
  void anAdapterUsingTheRuntimeIsReported() {
    EvaluationResult result = BoundaryRules.adaptersDoNotDependOnTheRuntime("dev.hookledger.architecture.fixture.adapter..")
        .evaluate(fixtures("dev.hookledger.architecture.fixture.adapter"));

    assertTrue(result.hasViolation());
    assertTrue(violations(result).stream().anyMatch(v -> v.contains(
        "RuntimeAwareAdapter.started(dev.hookledger.runtime.WebhookRuntime)")), violations(result).toString());
  }

  @Test
  void anAdapterUsingAnInternalClassOfSdkApiIsReported() {
    EvaluationResult result = BoundaryRules.adaptersUseNoInternals("dev.hookledger.architecture.fixture.provider..")
        .evaluate(fixtures("dev.hookledger.architecture.fixture.provider"));

    assertEquals(List.of("Method <dev.hookledger.architecture.fixture.provider.InternalsAdapter.instant(java.lang.String)>"
        + " calls method <dev.hookledger.internal.Timestamps.parseOffsetDateTime(java.lang.CharSequence)>"
        + " in (InternalsAdapter.java:9)"), violations(result));
  }

  @Test
  void aWebClassUsingAnInternalClassIsReported() {
    EvaluationResult result = BoundaryRules.usesOnlyPublicApi("dev.hookledger.architecture.fixture.web..")
        .evaluate(fixtures("dev.hookledger.architecture.fixture.web"));

    assertEquals(List.of("Method <dev.hookledger.architecture.fixture.web.ReachesInside.when(java.time.Instant)>"
        + " calls method <dev.hookledger.runtime.internal.admin.TimeText.second(java.time.Instant)>"
        + " in (ReachesInside.java:9)"), violations(result));
  }

  @Test
  void aProviderNamedInTheCoreIsReportedByLiteralAndByClass() {
    EvaluationResult result = BoundaryRules.coreNamesNoProvider(ArchitectureTest.PROVIDERS,
            "dev.hookledger.architecture.fixture.core..")
        .evaluate(fixtures("dev.hookledger.architecture.fixture.core"));

    String type = "dev.hookledger.architecture.fixture.core.NamesAProvider";
    assertEquals(List.of(type + " names provider 'github'", type + " names provider 'stripe'"), violations(result));
  }

  private static JavaClasses fixtures(String pkg) {
    return new ClassFileImporter().withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS).importPackages(pkg);
  }

  private static List<String> violations(EvaluationResult result) {
    return result.getFailureReport().getDetails().stream().sorted().toList();
  }
}
