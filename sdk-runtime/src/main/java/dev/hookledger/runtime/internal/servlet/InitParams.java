package dev.hookledger.runtime.internal.servlet;

import dev.hookledger.Secrets;
import dev.hookledger.internal.UnusableSecrets;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.receive.ProviderDiscovery;
import dev.hookledger.runtime.internal.settings.SettingText;
import dev.hookledger.runtime.internal.settings.SettingsCatalogue;
import dev.hookledger.spi.ProviderAdapter;
import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Turns a {@code web.xml} filter's init-params, and the environment variables they name, into a
 * runtime builder. Secrets come from the environment only, never from {@code web.xml}.
 */
public final class InitParams {
  /** The environment variable read for the JDBC URL when neither jdbc-url nor jdbc-url-env is given. */
  public static final String DEFAULT_JDBC_URL_ENV = "HOOKLEDGER_JDBC_URL";
  /** The init-params that are not options of the catalogue: what the filter's own runtime is built from. */
  private static final Set<String> OWN = Set.of("jdbc-url", "jdbc-url-env", "providers", "handlers", "path-prefix");
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
    WebhookRuntimeBuilder b = WebhookRuntime.builder();
    jdbcUrl(b, params, environment);
    // every option of the catalogue: its init-param, else its environment variable; the builder holds the defaults
    SettingsCatalogue.applyText(b, setting -> params.containsKey(setting.key()) ? params.get(setting.key())
        : environment.apply(setting.environmentVariable()), key -> where(key, params));
    for (String id : providers) {
      String variable = params.getOrDefault(id + SECRET_ENV, secretVariable(id)).trim();
      ProviderAdapter adapter = ProviderDiscovery.find(id, loader);
      Secrets secrets = secrets(id, variable, environment.apply(variable), adapter.minimumSecretLength());
      try {
        b.provider(adapter, secrets);
      } catch (IllegalArgumentException e) {
        // the adapter's own rule (checkSecrets) names the secret's id; the operator sets the variable
        throw new IllegalArgumentException("environment variable " + variable + ": " + e.getMessage(), e);
      }
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

  /** How a message names an option: by its init-param if one is given, else by its environment variable. */
  private static String where(String key, Map<String, String> params) {
    if (params.containsKey(key) || SettingsCatalogue.RETRY.equals(key)) {
      return "init-param " + (SettingsCatalogue.RETRY.equals(key) ? "retry.*" : key);
    }
    return "environment variable " + SettingsCatalogue.byKey(key).orElseThrow().environmentVariable();
  }

  private static void checkNames(Map<String, String> params, List<String> providers) {
    Set<String> known = new TreeSet<>(OWN);
    SettingsCatalogue.all().forEach(setting -> known.add(setting.key()));
    for (String name : params.keySet()) {
      boolean perProvider = providers.stream()
          .anyMatch(p -> name.equals(p + SECRET_ENV) || name.equals(p + MAX_BODY_BYTES));
      if (!known.contains(name) && !perProvider) {
        throw new IllegalArgumentException("unknown init-param '" + name + "' (known: " + String.join(", ", known)
            + ", and per listed provider <id>" + SECRET_ENV + ", <id>" + MAX_BODY_BYTES + ")");
      }
    }
  }

  private static void jdbcUrl(WebhookRuntimeBuilder b, Map<String, String> params, Function<String, String> env) {
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

  private static int number(String param, String value) {
    try {
      return Integer.parseInt(value.trim());
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
    return SettingText.list(value);
  }

  /** What the init-params configure. */
  public record Configured(WebhookRuntimeBuilder builder, WebhookPath path) {}
}
