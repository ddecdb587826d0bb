package dev.hookledger.runtime.spring.internal;

import dev.hookledger.OnEvent;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The application's singleton beans that declare {@link OnEvent} methods, asked for when the runtime
 * is built: when the context starts, after every singleton is created, so each is the instance the
 * context made in its own order (hookledger creates none early; only a lazy one is created then).
 * Beans of other scopes (prototype, request, session) are not handlers: each event would need an
 * instance of its own.
 *
 * <p>Proxies are seen through: a bean proxied by CGLIB (for {@code @Transactional}, say) is registered
 * as the proxy, so its advice applies to each call; a JDK dynamic proxy (which has no {@code @OnEvent}
 * method of its own) is registered as its target, so its handlers run, without the proxy's advice.
 */
public final class HandlerBeans {
  private static final Logger log = LoggerFactory.getLogger(HandlerBeans.class);

  private HandlerBeans() {}

  /**
   * Every {@code @OnEvent} singleton of {@code beans}.
   *
   * @throws IllegalStateException naming the bean, if one is still being created: it needs the
   *     runtime, which is built from it
   */
  public static List<Object> in(ListableBeanFactory beans) {
    ConfigurableListableBeanFactory factory =
        beans instanceof ConfigurableListableBeanFactory f ? f : null;
    List<Object> handlers = new ArrayList<>();
    for (String name : beans.getBeanNamesForType(Object.class, true, false)) {
      if (BeanFactoryUtils.isFactoryDereference(name)) {
        continue;
      }
      Object made = factory != null && factory.containsSingleton(name) ? factory.getSingleton(name) : null;
      Class<?> type = made != null ? AopUtils.getTargetClass(made) : beans.getType(name, false);
      // asked only of a match: for a FactoryBean, isSingleton creates the factory
      if (type == null || !declaresOnEvent(ClassUtils.getUserClass(type)) || !beans.isSingleton(name)) {
        continue;
      }
      if (factory != null && factory.isCurrentlyInCreation(name)) {
        throw new IllegalStateException("hookledger: bean '" + name + "' (" + ClassUtils.getUserClass(type).getName()
            + ") declares @OnEvent methods and needs the WebhookRuntime bean, which is built from the @OnEvent beans:"
            + " inject ObjectProvider<WebhookRuntime> instead, and ask it for the runtime when it is used");
      }
      handlers.add(callable(name, made != null ? made : beans.getBean(name)));
    }
    return handlers;
  }

  /** What the runtime calls: the bean, or the target of a JDK dynamic proxy (whose class declares no handler). */
  private static Object callable(String name, Object bean) {
    if (!AopUtils.isJdkDynamicProxy(bean)) {
      return bean;
    }
    Object target = AopProxyUtils.getSingletonTarget(bean);
    if (target == null) {
      throw new IllegalStateException("hookledger: bean '" + name + "' is a JDK dynamic proxy without a single target,"
          + " so its @OnEvent methods cannot be called: proxy it by class (proxyTargetClass = true)");
    }
    log.info("hookledger: bean '{}' is a JDK dynamic proxy: its @OnEvent methods are called on {}, without the proxy's"
        + " advice (proxy it by class, proxyTargetClass = true, for the advice to apply)", name,
        target.getClass().getName());
    return target;
  }

  /** Whether {@code type} or a superclass declares an {@code @OnEvent} method (what the runtime's scanner walks). */
  public static boolean declaresOnEvent(Class<?> type) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      String name = c.getName();
      if (name.startsWith("java.") || name.startsWith("org.springframework.")) {
        return false;
      }
      Method[] methods;
      try {
        methods = c.getDeclaredMethods();
      } catch (LinkageError e) {
        return false; // a class whose optional dependencies are absent declares no handler we could call
      }
      for (Method m : methods) {
        if (m.isAnnotationPresent(OnEvent.class)) {
          return true;
        }
      }
    }
    return false;
  }
}
