package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import com.fasterxml.jackson.databind.deser.std.StdValueInstantiator;
import com.fasterxml.jackson.databind.introspect.AnnotatedConstructor;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.lang.reflect.Modifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mapper that payload parameters are read with: the application's, copied, whose deserializers
 * skip a property the target type does not know in one step instead of copying it first.
 *
 * <p>Payload readers never fail on unknown properties ({@code FAIL_ON_UNKNOWN_PROPERTIES} off), and a
 * webhook payload is mostly properties the handler's type does not name (a Stripe invoice has about
 * 80, a record names a few). For a type built through a creator that takes its properties (every
 * record), Jackson copies each unknown property whole into a token buffer, since the creator has not
 * run yet, and only then drops it; a profile of the inbox workers found most of their mapping time
 * there. Unless the deserializer ignores all unknown properties (jackson-databind 2.13 and later,
 * databind#3082: {@code BeanDeserializer._deserializeUsingPropertyBased} then skips the value where it
 * stands). Ignoring is what the reader does with them anyway, so this copy of the mapper sets it on
 * every bean deserializer whose outcome cannot differ, and leaves alone the ones whose could:
 * <ul>
 *   <li>a type with a {@code @JsonAnySetter}, which receives the unknown properties itself;
 *   <li>a type built by a static factory method while subclasses of it may exist: Jackson hands the
 *       copied properties to the deserializer of the subtype the factory returned, which may know them;
 *   <li>exceptions, which Jackson reads with its own deserializer.
 * </ul>
 * A mapper with a {@code DeserializationProblemHandler} is used as it is: the handler is told of each
 * unknown property, and a skipped one would not reach it. So is one that cannot be copied (a subclass
 * of {@code ObjectMapper} that does not override {@code copy()}). The application's mapper itself is
 * never changed. Thread-safe.
 */
public final class UnknownPropertySkipping {
  private static final Logger log = LoggerFactory.getLogger(UnknownPropertySkipping.class);
  /** Also the module's type id: registering it twice (a copy of a copy) registers it once. */
  private static final String MODULE = "hookledger-skip-unknown-properties";

  private UnknownPropertySkipping() {}

  /**
   * The mapper to read payload parameters with: a copy of {@code mapper} whose bean deserializers skip
   * unknown properties whole, or {@code mapper} itself where that could change what a handler sees.
   */
  public static ObjectMapper mapperFor(ObjectMapper mapper) {
    if (mapper.getDeserializationConfig().getProblemHandlers() != null) {
      log.debug("payload parameters read with the application's ObjectMapper as it is: its"
          + " DeserializationProblemHandler is told of unknown properties");
      return mapper;
    }
    ObjectMapper copy;
    try {
      copy = mapper.copy();
    } catch (IllegalStateException e) {
      // ObjectMapper._checkInvalidCopy: a subclass that does not override copy()
      log.debug("payload parameters read with the application's ObjectMapper as it is: {}", e.getMessage());
      return mapper;
    }
    return copy.registerModule(new SimpleModule(MODULE).setDeserializerModifier(new Skipper()));
  }

  /** Sets "ignore all unknown" on each bean deserializer where ignoring is the outcome anyway. */
  private static final class Skipper extends BeanDeserializerModifier {
    private static final long serialVersionUID = 1L;

    @Override
    public BeanDeserializerBuilder updateBuilder(DeserializationConfig config, BeanDescription description,
        BeanDeserializerBuilder builder) {
      Class<?> type = description.getBeanClass();
      if (builder.getAnySetter() == null && !Throwable.class.isAssignableFrom(type)
          && exactlyThisType(type, builder.getValueInstantiator())) {
        builder.setIgnoreUnknownProperties(true);
      }
      return builder;
    }

    /**
     * Whether the creator can only make an instance of {@code type} itself: a final class (every record)
     * or a constructor. A factory method may return a subtype, which Jackson then gives the properties
     * it copied.
     */
    private static boolean exactlyThisType(Class<?> type, ValueInstantiator instantiator) {
      if (Modifier.isFinal(type.getModifiers()) || instantiator == null) {
        return true;
      }
      if (!(instantiator instanceof StdValueInstantiator standard)) {
        return false;
      }
      return standard.getWithArgsCreator() == null || standard.getWithArgsCreator() instanceof AnnotatedConstructor;
    }
  }
}
