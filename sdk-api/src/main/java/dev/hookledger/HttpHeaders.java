package dev.hookledger;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Request headers with case-insensitive names and several values per name, in arrival order.
 * Immutable and thread-safe.
 */
public final class HttpHeaders {
  private static final HttpHeaders EMPTY = new HttpHeaders(Map.of());

  /** Lower-cased name to values; the original spelling of names is not kept. */
  private final Map<String, List<String>> values;

  private HttpHeaders(Map<String, List<String>> values) {
    this.values = values;
  }

  /** No headers at all. */
  public static HttpHeaders empty() {
    return EMPTY;
  }

  /** Headers from a map of single values; names are case-insensitive. */
  public static HttpHeaders of(Map<String, String> single) {
    requireNonNull(single, "headers");
    Builder b = builder();
    single.forEach(b::add);
    return b.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The first value of {@code name}, if the header is present. */
  public Optional<String> first(String name) {
    List<String> list = values.get(key(name));
    return list == null || list.isEmpty() ? Optional.empty() : Optional.of(list.get(0));
  }

  /** Every value of {@code name} in arrival order; empty if absent. Never null. */
  public List<String> all(String name) {
    List<String> list = values.get(key(name));
    return list == null ? List.of() : list;
  }

  /** Whether {@code name} is present. */
  public boolean contains(String name) {
    return values.containsKey(key(name));
  }

  /** Every header, names lower-cased, in arrival order. Unmodifiable. */
  public Map<String, List<String>> asMap() {
    return values;
  }

  private static String key(String name) {
    return requireNonNull(name, "name").toLowerCase(Locale.ROOT);
  }

  /** Header names only: values may hold credentials. */
  @Override
  public String toString() {
    return "HttpHeaders" + values.keySet();
  }

  /** Builds {@link HttpHeaders}; not thread-safe. */
  public static final class Builder {
    private final Map<String, List<String>> values = new LinkedHashMap<>();

    private Builder() {}

    /** Adds one value of {@code name}, keeping values added before. */
    public Builder add(String name, String value) {
      requireNonNull(value, "value");
      values.computeIfAbsent(key(name), k -> new ArrayList<>(1)).add(value);
      return this;
    }

    public HttpHeaders build() {
      Map<String, List<String>> copy = new LinkedHashMap<>();
      values.forEach((k, v) -> copy.put(k, List.copyOf(v)));
      return new HttpHeaders(Collections.unmodifiableMap(copy));
    }
  }
}
