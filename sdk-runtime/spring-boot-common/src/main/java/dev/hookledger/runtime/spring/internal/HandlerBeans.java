package dev.hookledger.runtime.spring.internal;

import dev.hookledger.OnEvent;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The application's singleton beans that declare {@link OnEvent} methods: found by the type of each
 * bean definition (so that no other bean is created early), then created. Beans of other scopes
 * (prototype, request, session) are not handlers: each event would need an instance of its own. A bean proxied by CGLIB (for
 * {@code @Transactional}, say) is registered as the proxy, so its advice applies to each call.
 */
public final class HandlerBeans {
  private HandlerBeans() {}

  public static List<Object> in(ListableBeanFactory beans) {
    List<Object> handlers = new ArrayList<>();
    for (String name : beans.getBeanNamesForType(Object.class, true, false)) {
      if (BeanFactoryUtils.isFactoryDereference(name)) {
        continue;
      }
      Class<?> type = beans.getType(name, false);
      // asked only of a match: for a FactoryBean, isSingleton creates the factory
      if (type != null && declaresOnEvent(ClassUtils.getUserClass(type)) && beans.isSingleton(name)) {
        handlers.add(beans.getBean(name));
      }
    }
    return handlers;
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
