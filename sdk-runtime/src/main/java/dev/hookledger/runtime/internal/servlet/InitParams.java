package dev.hookledger.runtime.internal.servlet;

import dev.hookledger.Secrets;
import dev.hookledger.internal.UnusableSecrets;
import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.internal.receive.ProviderDiscovery;
import dev.hookledger.spi.ProviderAdapter;
import java.lang.reflect.Constructor;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a {@code web.xml} filter's init-params, and the environment variables they name, into a
 * runtime builder. Secrets come from the environment only, never from {@code web.xml}.
 */
public final class InitParams {
  /** The environment variable read for the JDBC URL when neither jdbc-url nor jdbc-url-env is given. */
  public static final String DEFAULT_JDBC_URL_ENV = "HOOKLEDGER_JDBC_URL";
  private static final Set<String> NAMES = Set.of("jdbc-url", "jdbc-url-env", "schema", "providers", "handlers",
      "path-prefix", "mode", "inline", "workers", "ledger-writers", "receive-queue-capacity", "handler-timeout",
      "statement-timeout", "lock-timeout", "idle-in-transaction-timeout", "connect-timeout", "socket-timeout",
      "max-in-flight-body-bytes", "body-read-timeout");
  /** {@code 500ms}, {@code 30s}, {@code 2m}, or ISO-8601 ({@code PT30S}). */
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m)");
  private static final String SECRET_ENV = ".secret-env";
  private static final String MAX_BODY_BYTES = ".max-body-bytes";

  private InitParams() {}

  /**
   * A builder and the path prefix, from the init-params.
   *
   * @param environment looks up environment variables ({@code System::getenv} outside tests)
   * @param loader loads handler classes
   * @throws IllegalArgumentException naming the init-param or environment variable at fault
   */
  public static Configured read(Map<String, String> params, Function<String, String> environment, ClassLoader loader) {
    List<String> providers = list(params.get("providers"));
    if (providers.isEmpty()) {
      throw new IllegalArgumentException("init-param providers is required: the provider ids, comma-separated");
    }
    checkNames(params, providers);
    WebhookRuntime.Builder b = WebhookRuntime.builder();
    jdbcUrl(b, params, environment);
    if (params.containsKey("schema")) {
      b.schema(params.get("schema").trim());
    }
    if (params.containsKey("mode")) {
      b.mode(mode(params.get("mode")));
    }
    b.inline(list(params.get("inline")).toArray(String[]::new));
    if (params.containsKey("ledger-writers")) {
      b.ledgerWriters(number("ledger-writers", params.get("ledger-writers")));
    }
    if (params.containsKey("receive-queue-capacity")) {
      b.receiveQueueCapacity(number("receive-queue-capacity", params.get("receive-queue-capacity")));
    }
    if (params.containsKey("workers")) {
      b.workers(number("workers", params.get("workers")));
    }
    if (params.containsKey("max-in-flight-body-bytes")) {
      b.maxInFlightBodyBytes(longNumber("max-in-flight-body-bytes", params.get("max-in-flight-body-bytes")));
    }
    deadlines(b, params);
    for (String id : providers) {
      String variable = params.getOrDefault(id + SECRET_ENV, secretVariable(id)).trim();
      ProviderAdapter adapter = ProviderDiscovery.find(id, loader);
      b.provider(adapter, secrets(id, variable, environment.apply(variable), adapter.minimumSecretLength()));
      if (params.containsKey(id + MAX_BODY_BYTES)) {
        b.maxBodyBytes(id, number(id + MAX_BODY_BYTES, params.get(id + MAX_BODY_BYTES)));
      }
    }
    for (String className : list(params.get("handlers"))) {
      b.handlers(instantiate(className, loader));
    }
    return new Configured(b, WebhookPath.of(params.getOrDefault("path-prefix", "/webhooks/").trim()));
  }

  /** {@code HOOKLEDGER_<PROVIDER>_SECRET}, the provider id upper-cased with other characters as {@code _}. */
  public static String secretVariable(String provider) {
    return "HOOKLEDGER_" + provider.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + "_SECRET";
  }

  private static void checkNames(Map<String, String> params, List<String> providers) {
    for (String name : params.keySet()) {
      boolean perProvider = providers.stream()
          .anyMatch(p -> name.equals(p + SECRET_ENV) || name.equals(p + MAX_BODY_BYTES));
      if (!NAMES.contains(name) && !perProvider) {
        throw new IllegalArgumentException("unknown init-param '" + name + "' (known: " + String.join(", ", new TreeSet<>(NAMES))
            + ", and per listed provider <id>" + SECRET_ENV + ", <id>" + MAX_BODY_BYTES + ")");
      }
    }
  }

  private static void jdbcUrl(WebhookRuntime.Builder b, Map<String, String> params, Function<String, String> env) {
    if (params.containsKey("jdbc-url")) {
      b.jdbcUrl(params.get("jdbc-url").trim());
      return;
    }
    String variable = params.getOrDefault("jdbc-url-env", DEFAULT_JDBC_URL_ENV).trim();
    String url = env.apply(variable);
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("no ledger database: set init-param jdbc-url, or environment variable "
          + variable + (params.containsKey("jdbc-url-env") ? " (named by init-param jdbc-url-env)" : ""));
    }
    b.jdbcUrl(url.trim());
  }

  private static Secrets secrets(String provider, String variable, String value, int minLength) {
    List<String> values = list(value);
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no secret for provider '" + provider + "': environment variable " + variable
          + " is " + (value == null ? "not set" : "empty") + " (set it, comma-separated for rotation, or name another"
          + " with init-param " + provider + SECRET_ENV + ")");
    }
    for (String v : values) {
      UnusableSecrets.refuse("environment variable " + variable + " (the secret of provider '" + provider + "')", v,
          minLength);
    }
    return Secrets.of(values.toArray(String[]::new));
  }

  private static ProcessingMode mode(String value) {
    String name = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    try {
      return ProcessingMode.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("init-param mode must be one of " + Arrays.toString(ProcessingMode.values())
          + ", but was '" + value + "'", e);
    }
  }

  private static void deadlines(WebhookRuntime.Builder b, Map<String, String> params) {
    Map<String, BiConsumer<WebhookRuntime.Builder, Duration>> setters = Map.of(
        "handler-timeout", WebhookRuntime.Builder::handlerTimeout,
        "statement-timeout", WebhookRuntime.Builder::statementTimeout,
        "lock-timeout", WebhookRuntime.Builder::lockTimeout,
        "idle-in-transaction-timeout", WebhookRuntime.Builder::idleInTransactionTimeout,
        "connect-timeout", WebhookRuntime.Builder::connectTimeout,
        "socket-timeout", WebhookRuntime.Builder::socketTimeout,
        "body-read-timeout", WebhookRuntime.Builder::bodyReadTimeout);
    for (Map.Entry<String, BiConsumer<WebhookRuntime.Builder, Duration>> s : new TreeMap<>(setters).entrySet()) {
      if (params.containsKey(s.getKey())) {
        try {
          s.getValue().accept(b, duration(s.getKey(), params.get(s.getKey())));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("init-param " + s.getKey() + ": " + e.getMessage(), e);
        }
      }
    }
  }

  /** A duration as {@code 500ms}, {@code 30s}, {@code 2m}, or ISO-8601 ({@code PT30S}). */
  static Duration duration(String param, String value) {
    String v = value.trim();
    Matcher m = DURATION.matcher(v);
    try {
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          default -> Duration.ofMinutes(n);
        };
      }
      return Duration.parse(v);
    } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException("must be a duration such as 500ms, 30s, 2m or PT30S, but was '" + value + "'", e);
    }
  }

  private static int number(String param, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("init-param " + param + " must be a whole number, but was '" + value + "'", e);
    }
  }

  private static long longNumber(String param, String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("init-param " + param + " must be a whole number, but was '" + value + "'", e);
    }
  }

  private static Object instantiate(String className, ClassLoader loader) {
    Class<?> type;
    try {
      type = Class.forName(className, true, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("handler class '" + className + "' (init-param handlers) is not on the class path", e);
    }
    try {
      Constructor<?> constructor = type.getDeclaredConstructor();
      constructor.trySetAccessible();
      return constructor.newInstance();
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException("handler class '" + className + "' needs a no-argument constructor", e);
    } catch (ReflectiveOperationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalArgumentException("handler class '" + className + "' cannot be instantiated: " + cause, cause);
    }
  }

  private static List<String> list(String value) {
    List<String> out = new ArrayList<>();
    if (value != null) {
      for (String part : value.split(",")) {
        if (!part.isBlank()) {
          out.add(part.trim());
        }
      }
    }
    return out;
  }

  /** What the init-params configure. */
  public record Configured(WebhookRuntime.Builder builder, WebhookPath path) {}
}
