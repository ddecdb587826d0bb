package dev.hookledger.runtime.internal.servlet;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The path prefix a filter owns, e.g. {@code /webhooks/}: {@code /webhooks/{provider}} and
 * {@code /webhooks/{provider}/{tenant...}} reach the provider; other paths are not the filter's.
 * Immutable.
 */
public final class WebhookPath {
  private final String prefix;

  private WebhookPath(String prefix) {
    this.prefix = prefix;
  }

  /**
   * @param prefix starts with {@code /}; a missing trailing {@code /} is added
   * @throws IllegalArgumentException naming a prefix that does not start with {@code /}
   */
  public static WebhookPath of(String prefix) {
    requireNonNull(prefix, "pathPrefix");
    if (!prefix.startsWith("/") || prefix.contains("?") || prefix.contains("*")) {
      throw new IllegalArgumentException("path prefix must start with '/' and hold no '?' or '*', but was '"
          + prefix + "'");
    }
    return new WebhookPath(prefix.endsWith("/") ? prefix : prefix + "/");
  }

  public String prefix() {
    return prefix;
  }

  /**
   * The provider a path within the application names: empty if the path is not under the prefix,
   * an empty string if it is the prefix itself.
   */
  public Optional<String> provider(String path) {
    if (path.equals(prefix.substring(0, prefix.length() - 1))) {
      return Optional.of("");
    }
    if (!path.startsWith(prefix)) {
      return Optional.empty();
    }
    int end = path.indexOf('/', prefix.length());
    return Optional.of(end < 0 ? path.substring(prefix.length()) : path.substring(prefix.length(), end));
  }

  /**
   * What follows {@code {prefix}{provider}} in a path under the prefix: {@code /acct_1} for
   * {@code /webhooks/stripe/acct_1}, empty for {@code /webhooks/stripe}; what an adapter reads a
   * tenant from, so that no adapter knows the prefix.
   */
  public String providerPath(String path) {
    Optional<String> provider = provider(path);
    if (provider.isEmpty() || provider.get().isEmpty()) {
      return "";
    }
    return path.substring(prefix.length() + provider.get().length());
  }
}
