package dev.hookledger.runtime.internal.dispatch;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.HandlerFailedException;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * One {@code @OnEvent} method bound to its handler instance: the types it handles, the provider it
 * is limited to, and a method handle prepared once at registration. Immutable.
 */
final class HandlerMethod {
  private final HandlerTemplate template;
  private final String handlerClass;
  private final MethodHandle handle;
  private final int registration;
  private final List<ParameterBinder> binders;

  HandlerMethod(HandlerTemplate template, String handlerClass, MethodHandle handle, int registration,
      List<ParameterBinder> binders) {
    this.template = template;
    this.handlerClass = handlerClass;
    this.handle = handle;
    this.registration = registration;
    this.binders = List.copyOf(binders);
  }

  String handlerClass() {
    return handlerClass;
  }

  /** The stable name the ledger records this method by. */
  String name() {
    return template.name();
  }

  HandlerTemplate template() {
    return template;
  }

  int registration() {
    return registration;
  }

  boolean skipStale() {
    return template.skipStale();
  }

  boolean matches(WebhookEvent event) {
    if (!template.provider().isEmpty() && !template.provider().equals(event.provider())) {
      return false;
    }
    for (TypePattern p : template.patterns()) {
      if (p.matches(event.type())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Calls the method.
   *
   * @throws HandlerFailedException wrapping whatever the method (or the mapping of its payload
   *     parameter) threw; a {@link VirtualMachineError} passes unwrapped
   */
  void invoke(Invocation invocation) {
    Object[] args = new Object[binders.size()];
    int i = 0;
    invocation.context().calling(name(), invocation.tx());
    try {
      for (; i < args.length; i++) {
        args[i] = binders.get(i).bind(invocation);
      }
      handle.invokeExact(args);
    } catch (BindingFailure e) {
      // the payload lacks what the parameter asks for: say which parameter, in the binder's words
      throw new HandlerFailedException("@OnEvent method '" + template.description() + "' failed on "
          + invocation.event() + ": " + template.parameters().get(i) + ": " + e.getMessage(), e);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      throw new HandlerFailedException("@OnEvent method '" + template.description() + "' failed on "
          + invocation.event() + ": " + e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
    }
  }

  @Override
  public String toString() {
    return template.description();
  }
}
