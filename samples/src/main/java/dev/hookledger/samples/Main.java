package dev.hookledger.samples;

import dev.hookledger.samples.bench.BenchCommand;
import dev.hookledger.samples.demo.DemoCommand;
import dev.hookledger.samples.server.ServeCommand;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code hookledger-samples.jar}: {@code demo} (the default), {@code serve},
 * {@code bench}, and the operations commands of the hookledger command line.
 */
@Command(
    name = "hookledger-samples",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "hookledger's sample application: effectively-once webhooks from Stripe, GitHub and"
        + " Shopify. With no command, runs the demo.",
    subcommands = {DemoCommand.class, ServeCommand.class, BenchCommand.class,
        CommandLine.HelpCommand.class})
public final class Main implements Callable<Integer> {
  /** slf4j-simple's level for every logger not named in {@code simplelogger.properties}. */
  public static final String LOG_LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code; for tests, which must not exit the JVM. */
  public static int run(String... args) {
    CommandLine cli = commandLine(args);
    String[] moved = OpsCommand.globalOptionsAfterCommand(args);
    Optional<String> unknown = unknownCommand(cli, moved);
    if (unknown.isPresent()) {
      // picocli would print the top-level help for 'nosuch --help' and exit 0, as if the command had run
      System.err.println("hookledger-samples: unknown command '" + unknown.get() + "': the commands are "
          + String.join(", ", cli.getSubcommands().keySet()));
      return 2;
    }
    return cli.execute(moved);
  }

  /** The command {@code args} name, if it is none of the jar's: the first word that is no option or option value. */
  static Optional<String> unknownCommand(CommandLine cli, String... args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (OpsCommand.takesValue(a)) {
        i++; // its value follows
      } else if (!a.startsWith("-")) {
        return cli.getSubcommands().containsKey(a) ? Optional.empty() : Optional.of(a);
      }
    }
    return Optional.empty();
  }

  /**
   * The command line of the jar, ready to execute {@code args}. A report command's log level is set
   * first: slf4j-simple reads it once, when the first logger is made, and building the command line
   * already makes one (the runtime options' defaults come from a runtime builder), so a command that
   * set it when it runs would be too late and its report would carry the runtime's INFO lines.
   */
  static CommandLine commandLine(String... args) {
    quietLibraries();
    String level = reportLogLevel(args);
    if (level != null) {
      System.setProperty(LOG_LEVEL_PROPERTY, level);
    }
    CommandLine cli = new CommandLine(new Main());
    OpsCommand.addTo(cli, System::getenv);
    return cli;
  }

  /** The log level of the command {@code args} run, if its output is a report (no command: the demo). */
  static String reportLogLevel(String... args) {
    String command = Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst().orElse("demo");
    return switch (command) {
      case "demo" -> DemoCommand.LOG_LEVEL;
      case "bench" -> BenchCommand.LOG_LEVEL;
      default -> null;
    };
  }

  /** No command given: the demo. */
  @Override
  public Integer call() {
    return new CommandLine(new DemoCommand()).execute(); // parsed, so that its runtime options have their defaults
  }

  private static void quietLibraries() {
    // jOOQ prints a banner and tips at first use; the samples' output is read by people
    System.setProperty("org.jooq.no-logo", "true");
    System.setProperty("org.jooq.no-tips", "true");
  }

  /** The version printed by {@code --version}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"hookledger-samples " + (v == null ? "(development build)" : v)};
    }
  }
}
