package dev.hookledger.samples;

import dev.hookledger.runtime.cli.HookledgerCli;
import dev.hookledger.samples.server.EmbeddedDatabase;
import dev.hookledger.samples.server.RunningServe;
import dev.hookledger.samples.server.ServeCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * One of hookledger's operations commands (every subcommand of {@link HookledgerCli}: {@code status},
 * {@code list}, {@code show}, {@code retry}, {@code prune}, {@code migrate}, {@code replay},
 * {@code reconcile}, {@code backfill}), run by {@link HookledgerCli} with every argument passed
 * through.
 *
 * <p>Without {@code --database-url} (or {@code HOOKLEDGER_DATABASE_URL}) it works on the sample's
 * own embedded database: the one a running {@code serve} uses, or else it starts that database on
 * its data directory for the length of the command.
 */
@Command
final class OpsCommand implements Callable<Integer> {
  /**
   * Each command with the summary its help shows: hookledger's own subcommands and the first line of
   * their descriptions, read from its command line, so that the jar carries every command it has.
   */
  static final Map<String, String> COMMANDS = operatorCommands();

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "The embedded database of 'serve --data-dir DIR' (default: ~/.hookledger/samples-db).")
  Path dataDir = ServeCommand.DEFAULT_DATA_DIR;

  @Parameters(arity = "0..*", paramLabel = "ARGS", description = "Passed to hookledger's command.")
  List<String> args = new ArrayList<>();

  private final String name;
  private final Function<String, String> environment;

  OpsCommand(String name, Function<String, String> environment) {
    this.name = name;
    this.environment = environment;
  }

  /** hookledger's global options that take a value, and those that do not; {@code --data-dir} is ours. */
  private static final Set<String> WITH_VALUE = Set.of("--database-url", "--schema", "--max-attempts", "--stuck-after",
      "--data-dir");
  private static final Set<String> FLAGS = Set.of("--json", "--verbose");

  /** Whether {@code arg} is a global option whose value is the next argument ({@code --data-dir DIR}). */
  static boolean takesValue(String arg) {
    return WITH_VALUE.contains(arg);
  }

  /**
   * Moves global options written before an operations command ({@code --json status},
   * {@code --database-url URL list}) to after it, where the command takes them: the command line
   * accepts them on either side, as hookledger's own does. Anything else is left as it is.
   */
  static String[] globalOptionsAfterCommand(String... args) {
    List<String> globals = new ArrayList<>();
    int i = 0;
    while (i < args.length) {
      String a = args[i];
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (FLAGS.contains(a) || WITH_VALUE.contains(name) && a.contains("=")) {
        globals.add(a);
        i++;
      } else if (WITH_VALUE.contains(a) && i + 1 < args.length) {
        globals.add(a);
        globals.add(args[i + 1]);
        i += 2;
      } else {
        break;
      }
    }
    if (globals.isEmpty() || i >= args.length || !COMMANDS.containsKey(args[i])) {
      return args;
    }
    List<String> reordered = new ArrayList<>();
    reordered.add(args[i]);
    reordered.addAll(globals);
    reordered.addAll(Arrays.asList(args).subList(i + 1, args.length));
    return reordered.toArray(String[]::new);
  }

  /** Adds every operations command to {@code root}. */
  static void addTo(CommandLine root, Function<String, String> environment) {
    COMMANDS.forEach((name, summary) -> {
      CommandLine sub = new CommandLine(new OpsCommand(name, environment));
      sub.setUnmatchedOptionsArePositionalParams(true);
      sub.getCommandSpec().usageMessage().description(summary + " (hookledger's operations command: '"
          + name + " --help' for its options)");
      root.addSubcommand(name, sub);
    });
  }

  private static Map<String, String> operatorCommands() {
    Map<String, String> map = new LinkedHashMap<>();
    new CommandLine(new HookledgerCli()).getSubcommands().forEach((name, sub) -> {
      String[] description = sub.getCommandSpec().usageMessage().description();
      map.put(name, description.length == 0 ? "" : description[0]);
    });
    return Collections.unmodifiableMap(map);
  }

  @Override
  public Integer call() {
    List<String> forwarded = new ArrayList<>();
    forwarded.add(name);
    forwarded.addAll(args);
    boolean named = args.stream().anyMatch(a -> a.equals("--database-url") || a.startsWith("--database-url="))
        || !isBlank(environment.apply("HOOKLEDGER_DATABASE_URL"));
    if (named || args.contains("--help") || args.contains("-h")) {
      return HookledgerCli.run(forwarded.toArray(String[]::new));
    }
    Optional<String> running = RunningServe.find(dataDir);
    if (running.isPresent()) {
      return HookledgerCli.run(withUrl(forwarded, running.get()));
    }
    if (!name.equals("migrate") && !Files.isRegularFile(dataDir.resolve("PG_VERSION"))) {
      System.err.println("hookledger-samples: no database: pass --database-url, set HOOKLEDGER_DATABASE_URL,"
          + " or run 'serve' first (its embedded database lives in " + dataDir.toAbsolutePath() + ")");
      return 2;
    }
    try (EmbeddedDatabase db = EmbeddedDatabase.persistent(dataDir)) {
      return HookledgerCli.run(withUrl(forwarded, db.jdbcUrl()));
    }
  }

  private static String[] withUrl(List<String> forwarded, String url) {
    List<String> all = new ArrayList<>(forwarded);
    all.add("--database-url");
    all.add(url);
    return all.toArray(String[]::new);
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}
