package dev.hookledger.spi.standardwebhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.standardwebhooks.FlawedAdapter.Flaw;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The contract kit's checks can fail: run against the Standard Webhooks adapter with one deliberate
 * flaw each, exactly the checks about that flaw fail, while the sound adapter passes them all.
 */
class ContractKitDetectsFlawsTest {
  /** The configuration parameter under which the fixtures below run; a class path scan skips them. */
  static final String DRIVEN = "hookledger.contract-kit.self-test";

  @Test
  void theSoundAdapterPassesEveryCheck() {
    Events tests = run(Sound.class);
    assertEquals(Set.of(), failed(tests));
    assertEquals(tests.started().count(), tests.succeeded().count());
    assertTrue(tests.started().count() >= 21, "the kit's 21 checks ran, but only " + tests.started().count());
  }

  @Test
  void anAdapterThatAcceptsAnySignatureFailsEveryCheckOfATamperedOrForeignDelivery() {
    assertEquals(
        Set.of("flippedBodyByteIsRejectedAsMismatch", "deliverySignedWithAnotherSecretIsRejectedAsMismatch",
            "onlyTheNewSecretRejectsADeliverySignedWithTheOld", "rejectionMessagesNeverContainSecretsSignaturesOrBodies",
            "verificationIsThreadSafe", "noConfiguredSecretAcceptsNothing"),
        failed(run(AcceptsAnySignature.class)));
  }

  @Test
  void anAdapterThatEchoesItsSecretsFailsEveryCheckThatReadsAMismatchMessage() {
    assertEquals(
        Set.of("flippedBodyByteIsRejectedAsMismatch", "deliverySignedWithAnotherSecretIsRejectedAsMismatch",
            "onlyTheNewSecretRejectsADeliverySignedWithTheOld", "rejectionMessagesNeverContainSecretsSignaturesOrBodies"),
        failed(run(EchoesSecrets.class)));
  }

  @Test
  void anAdapterThatIgnoresTimestampsFailsTheToleranceChecks() {
    assertEquals(
        Set.of("timestampsBeyondTheToleranceAreRejectedOnBothSides", "rejectionMessagesNeverContainSecretsSignaturesOrBodies"),
        failed(run(IgnoresTimestamps.class)));
  }

  @Test
  void anAdapterThatRefusesAVerifiedDeliveryOverADisplayFieldFailsTheOrderingFieldRule() {
    assertEquals(
        Set.of("verifiedDeliveryIsNeverRefusedOverAFieldUsedOnlyForOrderingOrDisplay"),
        failed(run(RefusesOddTimestamp.class)));
  }

  @Test
  void anAdapterWhoseHeaderCheckRefusesSignedDeliveriesFailsTheHeaderCheckRule() {
    assertEquals(
        Set.of("headerCheckPassesSignedDeliveriesAndRefusesOnlyAsVerifyWould"),
        failed(run(HeaderCheckRefusesEverything.class)));
  }

  private static Events run(Class<?> fixture) {
    EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
        .configurationParameter(DRIVEN, "true")
        .selectors(selectClass(fixture))
        .execute();
    return results.testEvents();
  }

  private static Set<String> failed(Events tests) {
    Set<String> names = new TreeSet<>();
    tests.failed().stream()
        .map(e -> (MethodSource) e.getTestDescriptor().getSource().orElseThrow())
        .forEach(source -> names.add(source.getMethodName()));
    return names;
  }

  /** The kit, as the Standard Webhooks contract test applies it, on a {@link FlawedAdapter}. */
  @ExtendWith(DrivenByThisTest.class)
  abstract static class FlawedContract extends StandardWebhooksAdapterContractTest {
    private final Flaw flaw;

    FlawedContract(Flaw flaw) {
      this.flaw = flaw;
    }

    @Override
    protected ProviderAdapter adapter() {
      return new FlawedAdapter(flaw);
    }
  }

  static final class Sound extends FlawedContract {
    Sound() {
      super(Flaw.NONE);
    }
  }

  static final class AcceptsAnySignature extends FlawedContract {
    AcceptsAnySignature() {
      super(Flaw.ACCEPTS_ANY_SIGNATURE);
    }
  }

  static final class EchoesSecrets extends FlawedContract {
    EchoesSecrets() {
      super(Flaw.ECHOES_SECRETS);
    }
  }

  static final class IgnoresTimestamps extends FlawedContract {
    IgnoresTimestamps() {
      super(Flaw.IGNORES_TIMESTAMPS);
    }
  }

  static final class RefusesOddTimestamp extends FlawedContract {
    RefusesOddTimestamp() {
      super(Flaw.REFUSES_ODD_TIMESTAMP);
    }
  }

  static final class HeaderCheckRefusesEverything extends FlawedContract {
    HeaderCheckRefusesEverything() {
      super(Flaw.HEADER_CHECK_REFUSES_EVERYTHING);
    }
  }

  /** Runs the fixtures only when this test drives them: an IDE's package scan would find them too. */
  static final class DrivenByThisTest implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return context.getConfigurationParameter(DRIVEN).isPresent()
          ? ConditionEvaluationResult.enabled("driven by ContractKitDetectsFlawsTest")
          : ConditionEvaluationResult.disabled("a fixture of ContractKitDetectsFlawsTest, run only by it");
    }
  }
}
