package dev.hookledger.runtime.spring.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.Secrets;
import dev.hookledger.internal.UnusableSecrets;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.CamelCase;
import dev.hookledger.runtime.internal.receive.ProviderDiscovery;
import dev.hookledger.runtime.internal.settings.Setting;
import dev.hookledger.runtime.internal.settings.SettingsCatalogue;
import dev.hookledger.runtime.spring.HookledgerProperties;
import dev.hookledger.runtime.spring.SpringTransactions;
import dev.hookledger.runtime.spring.WebhookRuntimeCustomizer;
import dev.hookledger.spi.ProviderAdapter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.util.unit.DataSize;

/**
 * Builds the {@link WebhookRuntime} of a Spring Boot application from its {@code hookledger.*}
 * properties and beans: the application's {@code DataSource}, its transaction manager for the
 * handlers' transactions, provider adapters (beans first, then the class path), {@code @OnEvent}
 * beans, {@code EffectHandler} beans, the outbox's destinations and {@link WebhookListener} beans. Every bad setting fails with a message naming its property.
 */
public final class SpringRuntime {
  private static final Logger log = LoggerFactory.getLogger(SpringRuntime.class);

  private SpringRuntime() {}

  public static WebhookRuntime build(HookledgerProperties p, DataSource dataSource, PlatformTransactionManager transactions,
      List<ProviderAdapter> adapterBeans, List<WebhookListener> listeners, ObjectMapper objectMapper,
      List<Object> handlers, List<EffectHandlerBeans.Found> effectHandlers, List<WebhookRuntimeCustomizer> customizers) {
    WebhookRuntimeBuilder b = WebhookRuntime.builder();
    options(b, p);
    SpringDestinations.apply(b, p.getDestinations());
    providers(b, p.getProviders(), adapterBeans);
    listeners.forEach(b::listener);
    if (objectMapper != null) {
      b.objectMapper(objectMapper);
    }
    b.handlers(handlers.toArray());
    for (EffectHandlerBeans.Found h : effectHandlers) {
      try {
        h.register(b);
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("hookledger: EffectHandler bean '" + h.name() + "': " + e.getMessage());
      }
    }
    for (WebhookRuntimeCustomizer c : customizers) {
      c.customize(b);
    }
    // after the customizers: whatever they set, the ledger stays on Spring's connection and transactions
    SpringTransactions.wire(b, dataSource, transactions);
    log.info("hookledger: {} @OnEvent bean(s), {} EffectHandler bean(s), handler transactions on {}", handlers.size(),
        effectHandlers.size(),
        transactions.getClass().getName());
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      // cross-property checks (the builder names its settings as the properties are named, in camel case)
      throw new IllegalStateException("hookledger.* properties do not fit together: " + e.getMessage());
    }
  }

  /**
   * Registers each provider: an id in {@code hookledger.providers} or of an adapter bean, with the
   * secrets of its property; an adapter bean wins over the class path.
   */
  private static void providers(WebhookRuntimeBuilder b, Map<String, HookledgerProperties.Provider> configured,
      List<ProviderAdapter> adapterBeans) {
    Map<String, ProviderAdapter> beans = new TreeMap<>();
    for (ProviderAdapter a : adapterBeans) {
      ProviderAdapter before = beans.putIfAbsent(a.id(), a);
      if (before != null) {
        throw new IllegalStateException("hookledger: two ProviderAdapter beans with id '" + a.id() + "': "
            + before.getClass().getName() + " and " + a.getClass().getName());
      }
    }
    Set<String> ids = new LinkedHashSet<>(configured.keySet());
    ids.addAll(beans.keySet());
    if (ids.isEmpty()) {
      throw new IllegalStateException("hookledger: no provider is configured: set hookledger.providers.<id>.secret for"
          + " each provider whose webhooks this application receives (its adapter is found on the class path by"
          + " its id), or declare a ProviderAdapter bean");
    }
    for (String id : ids) {
      String property = "hookledger.providers." + id;
      HookledgerProperties.Provider settings = configured.getOrDefault(id, new HookledgerProperties.Provider());
      ProviderAdapter adapter = beans.get(id);
      try {
        if (adapter == null) {
          ClassLoader loader = Thread.currentThread().getContextClassLoader();
          adapter = ProviderDiscovery.find(id, loader != null ? loader : SpringRuntime.class.getClassLoader());
        }
        b.provider(adapter, secrets(property + ".secret", settings.getSecret(), adapter.minimumSecretLength()));
      } catch (IllegalArgumentException e) {
        // the message is whole: the class path's answer, prefixed with the property to fix
        throw new IllegalStateException(property + ": " + e.getMessage());
      }
      DataSize limit = settings.getMaxBodySize();
      if (limit != null) {
        set(property + ".max-body-size", limit, () -> b.maxBodyBytes(id, (int) Math.min(limit.toBytes(), Integer.MAX_VALUE)));
      }
    }
  }

  /**
   * The secrets of one property: it must be set, and no value may be blank, an unresolved
   * {@code ${...}} placeholder (what Spring leaves when the variable is unset), a published example or
   * shorter than the provider's secrets. Never puts a value in a message.
   */
  private static Secrets secrets(String property, List<String> values, int minLength) {
    List<String> kept = new ArrayList<>();
    if (values != null) {
      for (String v : values) {
        if (v != null && !v.isBlank()) {
          kept.add(v.strip());
        }
      }
    }
    if (kept.isEmpty()) {
      throw new RefusedSecretException(property, property + " is "
          + (values == null || values.isEmpty() ? "not set" : "blank") + ": set it to the provider's webhook signing secret (several, comma-separated, during a rotation)");
    }
    for (String v : kept) {
      UnusableSecrets.problem(v, minLength).ifPresent(problem -> {
        throw new RefusedSecretException(property, property + " " + problem
            + ": set it to the provider's webhook signing secret (several, comma-separated, during a rotation)");
      });
    }
    return Secrets.of(kept.toArray(String[]::new));
  }

  /** Applies one property, turning the builder's complaint into one that names the property. */
  public static void set(String property, Object value, Runnable setter) {
    checked(property, value, () -> {
      setter.run();
      return null;
    });
  }

  /** What {@code use} makes of one property's value, its complaint turned into one that names the property. */
  public static <T> T checked(String property, Object value, Supplier<T> use) {
    try {
      return use.get();
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidConfigurationPropertyValueException(property, value, e.getMessage());
    }
  }

  /**
   * Every option of the runtime's catalogue, from the property of the same name: one left unset keeps
   * the builder's default; a bad one fails naming its property. The pool options (connect and socket
   * timeouts) are the application's pool's, not hookledger's. (Public for the starters' shared door test.)
   */
  public static void options(WebhookRuntimeBuilder b, HookledgerProperties p) {
    BeanWrapper properties = PropertyAccessorFactory.forBeanPropertyAccess(p);
    SettingsCatalogue.apply(b, setting -> setting.isOwnPoolOnly() ? null : value(properties.getPropertyValue(path(setting))),
        (key, e) -> SettingsCatalogue.RETRY.equals(key)
            ? new InvalidConfigurationPropertyValueException("hookledger.retry", p.getRetry(), e.getMessage())
            : invalid(SettingsCatalogue.byKey(key).orElseThrow(), properties, e));
  }

  private static RuntimeException invalid(Setting<?> setting, BeanWrapper properties, IllegalArgumentException e) {
    return new InvalidConfigurationPropertyValueException(setting.property(), properties.getPropertyValue(path(setting)),
        e.getMessage());
  }

  /** The bean property path of a setting's Spring property: {@code hookledger.retry.max-attempts} is {@code retry.maxAttempts}. */
  static String path(Setting<?> setting) {
    return CamelCase.of(setting.property().substring("hookledger.".length()), "-");
  }


  /** A bound property as the catalogue takes it: sizes in bytes, an empty list as unset. */
  private static Object value(Object bound) {
    if (bound instanceof DataSize size) {
      return size.toBytes();
    }
    if (bound instanceof List<?> list && list.isEmpty()) {
      return null;
    }
    return bound;
  }
}
