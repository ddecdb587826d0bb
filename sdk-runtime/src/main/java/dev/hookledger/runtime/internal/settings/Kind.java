package dev.hookledger.runtime.internal.settings;

import dev.hookledger.runtime.ProcessingMode;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The type of a {@link Setting}: its Java type, how text becomes a value ({@link SettingText}, the
 * one grammar) and how a value is written back.
 *
 * @param javaName as the builder's signature names it
 * @param grammar how the documentation describes its text
 */
public record Kind<T>(String javaName, Class<?> type, String grammar, Function<String, T> parser,
    Function<T, String> formatter) {
  static final Kind<Integer> WHOLE = new Kind<>("int", Integer.class, "whole number", SettingText::whole,
      String::valueOf);
  static final Kind<Long> BYTES = new Kind<>("long", Long.class, "bytes: 1048576, 512KB, 128MB", SettingText::bytes,
      String::valueOf);
  static final Kind<Double> DECIMAL = new Kind<>("double", Double.class, "number", SettingText::decimal,
      String::valueOf);
  static final Kind<Duration> DURATION = new Kind<>("Duration", Duration.class, "duration: 500ms, 30s, 5m, PT30S",
      SettingText::duration, SettingText::format);
  static final Kind<Boolean> YES_NO = new Kind<>("boolean", Boolean.class, "true or false", SettingText::yesNo,
      String::valueOf);
  static final Kind<String> TEXT = new Kind<>("String", String.class, "text", String::trim, s -> s);
  static final Kind<ProcessingMode> MODE = new Kind<>("ProcessingMode", ProcessingMode.class,
      "STORE_FIRST, INLINE or SHADOW", SettingText::mode, Enum::name);
  @SuppressWarnings({"unchecked", "rawtypes"})
  static final Kind<List<String>> LIST = new Kind<>("String...", List.class, "comma-separated list",
      SettingText::list, l -> String.join(",", l));

  T parse(String text) {
    return parser.apply(text);
  }

  String format(T value) {
    return formatter.apply(value);
  }

  /**
   * A door's typed value as this kind's type: numbers widened or narrowed exactly, a single text
   * for a list split as text is.
   *
   * @throws IllegalArgumentException if it is of another type
   */
  @SuppressWarnings("unchecked")
  T cast(Object value) {
    if (type == Long.class && value instanceof Number n) {
      return (T) Long.valueOf(n.longValue());
    }
    if (type == Integer.class && value instanceof Number n && n.longValue() == n.intValue()) {
      return (T) Integer.valueOf(n.intValue());
    }
    if (type == Double.class && value instanceof Number n) {
      return (T) Double.valueOf(n.doubleValue());
    }
    if (value instanceof String s && type != String.class) {
      return parse(s);
    }
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException("must be a " + grammar + ", but was '" + value + "'");
    }
    return (T) value;
  }
}
