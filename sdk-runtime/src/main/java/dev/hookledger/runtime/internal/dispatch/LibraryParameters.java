package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.core.JsonPointer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Handler parameters of an optional library's own types, read as that library reads them (the
 * types of a provider's official SDK, say). Implementations are found by {@link ServiceLoader}, so
 * the dispatcher names none of them; one must recognise its types without loading its library.
 */
public interface LibraryParameters {

  /** Whether {@code type} is one of this library's types (decided without loading the library). */
  boolean supplies(Class<?> type);

  /** The binder of a parameter of {@code type}, read at {@code pointer} if one is given. */
  ParameterBinder binder(Class<?> type, JsonPointer pointer, PayloadAbsence absence);

  /** How registration messages name the types, e.g. {@code some-sdk's Event types}. */
  String described();

  /** Every registered library, in the order found. */
  static List<LibraryParameters> all() {
    return Registered.ALL;
  }

  /** The library that supplies {@code type}, if any. */
  static Optional<LibraryParameters> of(Class<?> type) {
    return all().stream().filter(l -> l.supplies(type)).findFirst();
  }

  /** Loaded once, on first use. */
  final class Registered {
    static final List<LibraryParameters> ALL = load();

    private Registered() {}

    private static List<LibraryParameters> load() {
      List<LibraryParameters> found = new ArrayList<>();
      ServiceLoader.load(LibraryParameters.class, LibraryParameters.class.getClassLoader()).forEach(found::add);
      return List.copyOf(found);
    }
  }
}
