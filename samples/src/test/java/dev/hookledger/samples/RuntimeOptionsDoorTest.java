package dev.hookledger.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.settings.RuntimeInternals;
import dev.hookledger.runtime.internal.settings.Setting;
import dev.hookledger.runtime.internal.settings.SettingsCatalogue;
import dev.hookledger.samples.bench.BenchCommand;
import dev.hookledger.samples.demo.DemoCommand;
import dev.hookledger.samples.server.ServeCommand;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command of the samples that builds a runtime ({@code serve}, {@code demo}, {@code bench})
 * is a door to every option of the runtime's settings catalogue: given on its command line, the
 * option reaches the builder the command hands to the runtime. (The catalogue's own doors are
 * {@code SettingsCatalogueTest}'s; the Spring door is the starters'.)
 */
class RuntimeOptionsDoorTest {
  @Test
  void serveReachesEveryOption() {
    assertEveryOptionReached(ServeCommand::new, ServeCommand::runtimeOptions);
  }

  @Test
  void demoReachesEveryOption() {
    assertEveryOptionReached(DemoCommand::new, DemoCommand::runtimeOptions);
  }

  @Test
  void benchReachesEveryOptionItsOwnWorkersIncluded() {
    assertEveryOptionReached(BenchCommand::new, BenchCommand::runtimeOptions);
    BenchCommand bench = new BenchCommand();
    new CommandLine(bench).parseArgs();
    assertEquals(4, RuntimeInternals.settings(bench.runtimeOptions().apply(WebhookRuntime.builder())).inbox().workers(),
        "bench's own --workers default");
  }

  private static <C> void assertEveryOptionReached(Supplier<C> newCommand,
      Function<C, UnaryOperator<WebhookRuntimeBuilder>> options) {
    for (Setting<?> s : SettingsCatalogue.all()) {
      C command = newCommand.get();
      new CommandLine(command).parseArgs(s.option(), s.example());
      WebhookRuntimeBuilder b = options.apply(command).apply(WebhookRuntime.builder());
      assertEquals(s.parse(s.example()), s.read(RuntimeInternals.settings(b)), s.option() + " did not reach " + s.builderCall());
    }
  }
}
