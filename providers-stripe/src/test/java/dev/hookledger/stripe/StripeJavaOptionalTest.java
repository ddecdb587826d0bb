package dev.hookledger.stripe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * stripe-java is an optional dependency of hookledger-stripe: without it on the class path, where
 * {@link StripeJavaParameters} is still found as a service, handlers that do not name its types
 * register and run as before. Run in a JVM whose class path lacks stripe-java (and Gson).
 */
class StripeJavaOptionalTest {

  @Test
  void handlersRunWithoutStripeJavaOnTheClassPath() throws IOException, InterruptedException {
    String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.contains("stripe-java") && !entry.contains("gson"))
        .collect(Collectors.joining(File.pathSeparator));
    assertTrue(!classPath.contains("stripe-java") && System.getProperty("java.class.path").contains("stripe-java"),
        "stripe-java was on this test's class path and is not on the child's");
    Process process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx128m", "-cp", classPath, Main.class.getName(),
        TestDatabase.create().jdbcUrl())).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child JVM did not end");

    assertEquals(0, process.exitValue(), output);
    assertTrue(output.contains("stripe-java absent; handled in_1 cus_ada"), output);
  }

  /** Registers a @Payload handler and processes one event INLINE, where stripe-java cannot be loaded. */
  public static final class Main {
    public static void main(String[] args) {
      try {
        Class.forName("com.stripe.model.StripeObject");
        throw new IllegalStateException("stripe-java is on the class path");
      } catch (ClassNotFoundException expected) {
        // the point of this run
      }
      Billing billing = new Billing();
      try (WebhookRuntime runtime = WebhookRuntime.builder().jdbcUrl(args[0]).schema("no_stripe")
          .provider(new TestHookAdapter(), Secrets.of("s")).handlers(billing).mode(ProcessingMode.INLINE).build()) {
        runtime.migrate();
        runtime.start();
        runtime.receive("testhook", new TestHookSigner("s").delivery("testhook", "evt_ns", "invoice.paid",
            "{\"data\":{\"object\":{\"id\":\"in_1\",\"customer\":\"cus_ada\"}}}"));
      }
      System.out.println("stripe-java absent; handled " + billing.seen);
    }
  }

  record Invoice(String id, String customer) {}

  static final class Billing {
    volatile String seen;

    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object") Invoice invoice) {
      seen = invoice.id() + " " + invoice.customer();
    }
  }
}
