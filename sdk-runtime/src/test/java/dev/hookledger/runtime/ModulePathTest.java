package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.testing.TestDatabase;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * hookledger on the module path: a small application module, compiled here against the runtime's and
 * sdk-api's module descriptors, runs in a child JVM with nothing but the modules the runtime requires
 * (no servlet API, picocli, Micrometer or stripe-java), receives one signed delivery into the ledger,
 * and can neither compile against nor reflect into an {@code internal} package.
 */
class ModulePathTest {
  /** The runtime's own modules and what they require, out of this test's class path. */
  private static final Pattern MODULE_PATH = Pattern.compile(
      ".*/(sdk-api|sdk-runtime)/target/classes/?|.*/(hookledger-sdk-api|hookledger-sdk-runtime)-[^/]*\\.jar"
          + "|.*/(jackson-(databind|core|annotations|datatype-jsr310|module-parameter-names)|bcprov-jdk18on|slf4j-api"
          + "|jooq|reactive-streams|r2dbc-spi|HikariCP|postgresql)-[0-9][^/]*\\.jar");

  private static final String MODULE = """
      module app {
        requires dev.hookledger.runtime;
        opens app to dev.hookledger.runtime;
      }
      """;

  private static final String MAIN = """
      package app;

      import dev.hookledger.OnEvent;
      import dev.hookledger.Secrets;
      import dev.hookledger.WebhookEvent;
      import dev.hookledger.runtime.ProcessingMode;
      import dev.hookledger.runtime.Receipt;
      import dev.hookledger.runtime.WebhookRuntime;
      import dev.hookledger.runtime.WebhookRuntimeBuilder;
      import dev.hookledger.standardwebhooks.StandardWebhooksAdapter;
      import dev.hookledger.standardwebhooks.StandardWebhooksTestSigner;
      import java.time.Instant;
      import java.util.ArrayList;
      import java.util.List;

      public final class Main {
        final List<String> seen = new ArrayList<>();

        @OnEvent("user.created")
        void created(WebhookEvent event) {
          seen.add(event.eventId());
        }

        public static void main(String[] args) throws Exception {
          Module runtime = WebhookRuntime.class.getModule();
          System.out.println("runtime module: " + runtime.getName());
          System.out.println("internal exported to app: "
              + runtime.isExported("dev.hookledger.runtime.internal.settings", Main.class.getModule()));
          try {
            Class.forName("dev.hookledger.runtime.internal.settings.RuntimeInternals")
                .getMethod("settings", WebhookRuntimeBuilder.class).invoke(null, WebhookRuntime.builder());
            System.out.println("internal read");
          } catch (IllegalAccessException e) {
            System.out.println("internal refused: " + e.getMessage());
          }
          String secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
          Main handlers = new Main();
          try (WebhookRuntime r = WebhookRuntime.builder()
              .jdbcUrl(args[0])
              .schema("module_path")
              .provider(StandardWebhooksAdapter.named("acme"), Secrets.of(secret.substring("whsec_".length())))
              .handlers(handlers)
              .mode(ProcessingMode.INLINE)
              .build()) {
            r.migrate();
            r.start();
            Receipt receipt = r.receive("acme", StandardWebhooksTestSigner.withSecrets(secret).provider("acme")
                .delivery("msg_1", "{\\"type\\":\\"user.created\\",\\"data\\":{}}", Instant.now()));
            System.out.println("receipt: " + receipt.outcome());
            System.out.println("handled: " + handlers.seen);
          }
        }
      }
      """;

  private static final String READS_INTERNAL = """
      package app;

      public final class ReadsInternal {
        Object mapper() {
          return dev.hookledger.internal.Json.MAPPER;
        }
      }
      """;

  @TempDir
  Path dir;

  @Test
  void anApplicationModuleReceivesASignedDeliveryAndCannotReadAnInternalPackage() throws Exception {
    // surefire runs tests from a manifest-only jar: the class path proper is in this property
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String modulePath = Arrays.stream(classPath.split(File.pathSeparator))
        .filter(e -> MODULE_PATH.matcher(e.replace(File.separatorChar, '/')).matches())
        .collect(Collectors.joining(File.pathSeparator));
    Path src = dir.resolve("src");
    Files.createDirectories(src.resolve("app"));
    Files.writeString(src.resolve("module-info.java"), MODULE);
    Files.writeString(src.resolve("app/Main.java"), MAIN);
    Path out = dir.resolve("out");

    assertEquals("", compile(modulePath, src, out), "the application compiles against the exported packages");

    Files.writeString(src.resolve("app/ReadsInternal.java"), READS_INTERNAL);
    String refused = compile(modulePath, src, dir.resolve("refused"));
    assertTrue(refused.contains("package dev.hookledger.internal is declared in module dev.hookledger.sdk.api,"
        + " which does not export it to module app"), refused);

    try (TestDatabase.Database db = TestDatabase.create()) {
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
          "--module-path", out + File.pathSeparator + modulePath, "--module", "app/app.Main", db.jdbcUrl()));
      Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(child.waitFor(5, TimeUnit.MINUTES), output);
      assertEquals(0, child.exitValue(), output);
      assertTrue(output.contains("runtime module: dev.hookledger.runtime\n"), output);
      assertTrue(output.contains("internal exported to app: false\n"), output);
      assertTrue(output.contains("internal refused: class app.Main (in module app) cannot access class"
          + " dev.hookledger.runtime.internal.settings.RuntimeInternals (in module dev.hookledger.runtime)"
          + " because module dev.hookledger.runtime does not export dev.hookledger.runtime.internal.settings"
          + " to module app\n"), output);
      assertTrue(output.contains("receipt: PROCESSED\n"), output);
      assertTrue(output.contains("handled: [msg_1]\n"), output);
    }
  }

  /** Compiles the application module; what javac reported, empty when it compiled cleanly. */
  private static String compile(String modulePath, Path src, Path out) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter report = new StringWriter();
    // an empty class path: javac's default is this JVM's, where sdk-api's classes would be an unnamed module
    List<String> options = List.of("--release", "17", "--module-path", modulePath, "--class-path", out.toString(),
        "-d", out.toString());
    List<String> files;
    try (var walk = Files.walk(src)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toString).toList();
    }
    boolean ok = javac.getTask(report, null, null, options, null,
        javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(files.toArray(String[]::new)))
        .call();
    return ok ? "" : report.toString();
  }
}
