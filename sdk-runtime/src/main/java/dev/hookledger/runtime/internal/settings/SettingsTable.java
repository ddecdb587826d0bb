package dev.hookledger.runtime.internal.settings;

import java.util.Optional;

/** The catalogue as the Markdown table of docs/configuration.md (a test keeps that page equal to it). */
public final class SettingsTable {
  private static final String HEAP = "a quarter of the heap";
  private static final String NONE = "none";

  private SettingsTable() {}

  /** The table, one row per option, in the catalogue's order. */
  public static String markdown() {
    RuntimeSettings defaults = SettingsCatalogue.defaults();
    StringBuilder out = new StringBuilder();
    out.append("| builder | web.xml init-param | Spring property | environment | command line | type | default |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    for (Setting<?> s : SettingsCatalogue.all()) {
      out.append("| `").append(s.builderCall()).append("` | `").append(s.key()).append("` | ")
          .append(s.isOwnPoolOnly() ? "– (the application's pool)" : "`" + s.property() + "`").append(" | `")
          .append(s.environmentVariable()).append("` | `").append(s.option()).append("` | ")
          .append(s.kind().grammar()).append(" | ").append(markdown(defaultText(s, defaults))).append(" |\n");
    }
    return out.toString();
  }

  /** A value as code; words (the heap's share, none) as words. */
  private static String markdown(String defaultText) {
    return defaultText.equals(HEAP) || defaultText.equals(NONE) ? defaultText : "`" + defaultText + "`";
  }

  /**
   * The builder's default of {@code s} as text: the value in {@code defaults}, but for the body budget,
   * which the builder computes from the heap of the JVM it runs in.
   */
  public static String defaultText(Setting<?> s, RuntimeSettings defaults) {
    if (followsTheHeap(s)) {
      return HEAP;
    }
    return fixedDefault(s, defaults).orElse(NONE);
  }

  /**
   * The builder's default of {@code s} in the one grammar, where it is one value on every machine
   * (what Spring Boot's configuration metadata shows as {@code defaultValue}); empty for the body
   * budget, which follows the heap, and for an option that is unset by default.
   */
  public static Optional<String> fixedDefault(Setting<?> s, RuntimeSettings defaults) {
    String text = followsTheHeap(s) ? "" : s.format(defaults);
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }

  private static boolean followsTheHeap(Setting<?> s) {
    return s.key().equals("max-in-flight-body-bytes");
  }
}
