package dev.hookledger.runtime.internal.dispatch.stripejava;

import com.fasterxml.jackson.core.JsonPointer;
import dev.hookledger.runtime.internal.dispatch.LibraryParameters;
import dev.hookledger.runtime.internal.dispatch.ParameterBinder;
import dev.hookledger.runtime.internal.dispatch.PayloadAbsence;

/**
 * stripe-java's model types as handler parameters. Registered as a {@link LibraryParameters}
 * service, so that the dispatcher itself names no provider; recognising a type loads nothing of
 * stripe-java, which stays optional.
 */
public final class StripeJavaParameters implements LibraryParameters {

  @Override
  public boolean supplies(Class<?> type) {
    return StripeTypes.isStripe(type);
  }

  @Override
  public ParameterBinder binder(Class<?> type, JsonPointer pointer, PayloadAbsence absence) {
    return StripeParameters.binder(type, pointer, absence);
  }

  @Override
  public String described() {
    return "stripe-java's Event and StripeObject types";
  }
}
