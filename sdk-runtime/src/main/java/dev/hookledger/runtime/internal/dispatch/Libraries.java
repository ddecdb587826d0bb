package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.spi.LibraryParameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * The {@link LibraryParameters} found by {@link ServiceLoader}, loaded once, and the binder of a
 * parameter of one of their types: the pointer resolved here, as for every payload parameter, and
 * only the value read by the library.
 */
final class Libraries {
  private static final List<LibraryParameters> ALL = load();

  private Libraries() {}

  /** Every registered library, in the order found. */
  static List<LibraryParameters> all() {
    return ALL;
  }

  /** The library that supplies {@code type}, if any. */
  static Optional<LibraryParameters> of(Class<?> type) {
    return ALL.stream().filter(l -> l.supplies(type)).findFirst();
  }

  static ParameterBinder binder(LibraryParameters library, Class<?> type, JsonPointer pointer,
      PayloadAbsence absence) {
    if (pointer == null) {
      return inv -> absence.wrap(read(() -> library.fromEvent(inv.event(), type)));
    }
    return inv -> {
      JsonNode node = inv.event().payload().at(pointer);
      if (node.isMissingNode()) {
        return absence.absent();
      }
      if (node.isNull()) {
        return absence.presentNull(); // a provider's explicit null (a discount, a default payment method): null
      }
      return absence.wrap(read(() -> library.fromJson(node.toString(), type)));
    };
  }

  /** The library's value; its refusal fails the attempt with the library's message. */
  private static Object read(Supplier<Object> value) {
    try {
      return value.get();
    } catch (IllegalArgumentException e) {
      throw new BindingFailure(e.getMessage());
    }
  }

  private static List<LibraryParameters> load() {
    List<LibraryParameters> found = new ArrayList<>();
    ServiceLoader.load(LibraryParameters.class, Libraries.class.getClassLoader()).forEach(found::add);
    return List.copyOf(found);
  }
}
