package dev.hookledger.runtime.internal.receive;

import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.internal.dispatch.TypePattern;
import java.util.List;

/** The processing mode of each event type: the runtime's mode, or INLINE for the types given to {@code inline(...)}. */
public final class ModeSelector {
  private final ProcessingMode mode;
  private final List<TypePattern> inline;

  public ModeSelector(ProcessingMode mode, List<TypePattern> inline) {
    this.mode = mode;
    this.inline = List.copyOf(inline);
  }

  public ProcessingMode modeFor(String type) {
    if (mode == ProcessingMode.STORE_FIRST) {
      for (TypePattern p : inline) {
        if (p.matches(type)) {
          return ProcessingMode.INLINE;
        }
      }
    }
    return mode;
  }
}
