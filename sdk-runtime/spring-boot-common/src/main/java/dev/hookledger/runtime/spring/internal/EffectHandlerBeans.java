package dev.hookledger.runtime.spring.internal;

import dev.hookledger.EffectHandler;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import java.util.ArrayList;
import java.util.List;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.ResolvableType;

/**
 * The application's singleton {@link EffectHandler} beans, asked for when the runtime is built (after
 * every singleton is created, as {@link HandlerBeans}: hookledger creates none early). Each is registered
 * under its bean name, which is its destination ({@code hookledger.destinations.<bean name>.*}), for the
 * effect class of its type argument, read from the bean's definition ({@code @Bean EffectHandler<ReceiptMail>})
 * or its class ({@code class Mailer implements EffectHandler<ReceiptMail>}).
 */
final class EffectHandlerBeans {
  private EffectHandlerBeans() {}

  /** One bean: its name (the destination), the effect class it delivers, and the bean. */
  record Found(String name, Class<?> effectType, EffectHandler<?> handler) {
    @SuppressWarnings({"unchecked", "rawtypes"})
    void register(WebhookRuntimeBuilder b) {
      b.effectHandler(name, (Class) effectType, (EffectHandler) handler);
    }
  }

  /**
   * Every {@code EffectHandler} singleton of {@code beans}.
   *
   * @throws IllegalStateException naming the bean, if its effect class cannot be read
   */
  static List<Found> in(ListableBeanFactory beans) {
    ConfigurableListableBeanFactory factory = beans instanceof ConfigurableListableBeanFactory f ? f : null;
    List<Found> found = new ArrayList<>();
    for (String name : beans.getBeanNamesForType(EffectHandler.class, false, false)) {
      if (BeanFactoryUtils.isFactoryDereference(name)) {
        continue;
      }
      EffectHandler<?> handler = beans.getBean(name, EffectHandler.class);
      Class<?> type = declared(factory, name);
      if (type == null) {
        type = ResolvableType.forClass(AopUtils.getTargetClass(handler)).as(EffectHandler.class).resolveGeneric(0);
      }
      if (type == null || type == Object.class) {
        throw new IllegalStateException("hookledger: EffectHandler bean '" + name + "' (" + handler.getClass().getName()
            + ") does not say which effect class it delivers: declare it as EffectHandler<YourEffect> (the @Bean"
            + " method's return type, or the class's implements clause)");
      }
      found.add(new Found(name, type, handler));
    }
    return found;
  }

  /** The effect class of the bean's definition (a {@code @Bean} method's return type), or null. */
  private static Class<?> declared(ConfigurableListableBeanFactory factory, String name) {
    if (factory == null || !factory.containsBeanDefinition(name)) {
      return null;
    }
    ResolvableType t = factory.getMergedBeanDefinition(name).getResolvableType();
    return t.as(EffectHandler.class).resolveGeneric(0);
  }
}
