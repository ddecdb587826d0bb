package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.OperationRefusedException;
import dev.hookledger.runtime.internal.VisibleJson;
import dev.hookledger.runtime.internal.admin.DurationText;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code hookledger} command line: the operator's tool over the ledger, built on
 * {@link InboxAdmin}. Run it as {@code java -cp ... dev.hookledger.runtime.cli.HookledgerCli}
 * (picocli, {@code info.picocli:picocli}, must be on the class path; it is an optional dependency of
 * sdk-runtime, and without it the command says so in one line and exits 1).
 *
 * <pre>
 * hookledger status                          counts, oldest waiting, failing (with causes), stuck, dead
 * hookledger list --status failing           newest first, with causes (--provider, --type 'invoice.*', --limit, --after)
 * hookledger show stripe evt_123 [--scope S] one event: headers, body, attempts, last error in full
 * hookledger retry stripe evt_123            a dead event back to pending, or a failing one due now
 * hookledger retry --dead --confirm 37       every dead event, once their count is confirmed
 * hookledger prune --older-than 30d          delete settled history (at least 3d unless --force; --dry-run)
 * hookledger migrate [--dry-run]             create or upgrade the ledger schema (or print its SQL)
 * hookledger replay stripe --since 2h        fetch missed events from the provider's API
 * </pre>
 *
 * <p>Global options, accepted before or after the command: {@code --database-url} (or
 * {@code HOOKLEDGER_DATABASE_URL}), {@code --schema} (or {@code HOOKLEDGER_SCHEMA}),
 * {@code --max-attempts} (or {@code HOOKLEDGER_MAX_ATTEMPTS}: the N of "attempt k of N"),
 * {@code --stuck-after} (or {@code HOOKLEDGER_STUCK_AFTER}), {@code --json} for machine-readable
 * output, {@code --verbose} for stack traces and library logs.
 *
 * <p>Exit codes: 0 done; 1 failed (database or provider API); 2 bad usage or an operation the
 * provider does not support; 3 refused by a safety check (prune window, retrying an event that is
 * neither dead nor failing, {@code retry --dead} without the confirmed count) or naming an event
 * the ledger does not have, with nothing changed. Errors are one
 * line on stderr, and a password in the database URL is never printed.
 */
@Command(name = "hookledger", scope = ScopeType.INHERIT, mixinStandardHelpOptions = true,
    versionProvider = HookledgerCli.Version.class,
    description = "Operate a hookledger webhook ledger: status, dead letters, retry, prune, migrate, replay.",
    subcommands = {StatusCommand.class, ListCommand.class, ShowCommand.class, RetryCommand.class,
        PruneCommand.class, MigrateCommand.class, ReplayCommand.class, BackfillCommand.class,
        ReconcileCommand.class, PauseCommand.class, ResumeCommand.class})
public final class HookledgerCli implements Runnable {
  static final int FAILED = 1;
  static final int USAGE = 2;
  static final int REFUSED = 3;

  @Spec
  private CommandSpec spec;

  @Option(names = "--database-url", scope = ScopeType.INHERIT, paramLabel = "JDBC_URL",
      defaultValue = "${env:HOOKLEDGER_DATABASE_URL}",
      description = "jdbc:postgresql://host:port/db?user=..&password=.. (default: $HOOKLEDGER_DATABASE_URL)")
  private String databaseUrl;

  @Option(names = "--schema", scope = ScopeType.INHERIT, paramLabel = "NAME",
      defaultValue = "${env:HOOKLEDGER_SCHEMA:-hookledger}",
      description = "the ledger's schema (default: $HOOKLEDGER_SCHEMA or hookledger)")
  private String schema;

  @Option(names = "--max-attempts", scope = ScopeType.INHERIT, paramLabel = "N",
      defaultValue = "${env:HOOKLEDGER_MAX_ATTEMPTS:-12}",
      description = "the processing runtimes' RetryPolicy.maxAttempts, for 'attempt k of N'"
          + " (default: $HOOKLEDGER_MAX_ATTEMPTS or 12)")
  private int maxAttempts;

  @Option(names = "--stuck-after", scope = ScopeType.INHERIT, paramLabel = "DURATION",
      defaultValue = "${env:HOOKLEDGER_STUCK_AFTER:-2m}",
      description = "a waiting event due this long and taken by no worker is stuck (default: $HOOKLEDGER_STUCK_AFTER or 2m)")
  private String stuckAfter;

  @Option(names = "--json", scope = ScopeType.INHERIT, description = "print JSON for scripts")
  private boolean json;

  @Option(names = "--verbose", scope = ScopeType.INHERIT,
      description = "print stack traces and the library's log")
  private boolean verbose;

  private DatabaseUrl url;
  /** stderr below its PrintWriter: where the command line's own controls go ({@link #carriageReturn}). */
  private TerminalSafeWriter errWriter;

  /** A {@code HookledgerCli} is created by {@link #main}; public for picocli and embedding. */
  public HookledgerCli() {}

  /** What {@link #main} prints, alone, when picocli is not on the class path. */
  static final String NO_PICOCLI = "hookledger: the command line needs picocli on the class path"
      + " (info.picocli:picocli 4.7 or later, an optional dependency of hookledger-sdk-runtime): add its jar to -cp,"
      + " or run the samples jar, which carries it";

  /** Runs the command line and exits with its code. */
  public static void main(String... args) {
    if (!picocliPresent()) {
      System.err.println(NO_PICOCLI); // one line, not a NoClassDefFoundError's trace
      System.exit(FAILED);
    }
    System.exit(run(args));
  }

  private static boolean picocliPresent() {
    try {
      Class.forName("picocli.CommandLine", false, HookledgerCli.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** Runs the command line, printing to stdout and stderr, and returns the exit code. */
  public static int run(String... args) {
    return run(System.out, System.err, args);
  }

  /**
   * Runs the command line, printing to {@code out} and {@code err}, and returns the exit code; the
   * environment is still the process's own ({@code HOOKLEDGER_DATABASE_URL} and the others).
   */
  static int run(PrintStream out, PrintStream err, String... args) {
    boolean verbose = Arrays.asList(args).contains("--verbose");
    quietLibraries(verbose);
    HookledgerCli root = new HookledgerCli();
    CommandLine cli = new CommandLine(root);
    // ledger data reaches both streams (error messages, types): control characters are shown, not obeyed
    cli.setOut(new PrintWriter(terminalSafe(out), true));
    root.errWriter = terminalSafe(err);
    cli.setErr(new PrintWriter(root.errWriter, true));
    cli.setExecutionExceptionHandler((e, line, parsed) -> ((HookledgerCli) cli.getCommand()).fail(e, line));
    cli.setParameterExceptionHandler((e, args1) -> {
      e.getCommandLine().getErr().println("hookledger: " + e.getMessage() + " (see --help)");
      return USAGE;
    });
    int code = cli.execute(args);
    // print() of a table does not autoflush; System.exit would drop what is buffered
    cli.getOut().flush();
    cli.getErr().flush();
    return code;
  }

  private static TerminalSafeWriter terminalSafe(PrintStream stream) {
    return new TerminalSafeWriter(new OutputStreamWriter(stream, Charset.defaultCharset()));
  }

  /**
   * Moves the cursor of {@code err} (the command line's stderr) back to the start of its line: a
   * progress bar's own carriage return, which the stream's escaping of ledger text must not show as
   * {@code \}{@code u000d}.
   */
  void carriageReturn(PrintWriter err) {
    err.flush();
    if (errWriter == null) {
      err.print('\r'); // not run through run(): nothing escapes it
      return;
    }
    try {
      errWriter.control('\r');
      errWriter.flush();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The admin over the database the options name. */
  InboxAdmin admin() {
    if (databaseUrl == null || databaseUrl.isBlank()) {
      throw AdminCommand.usage(spec.commandLine(),
          "no database: pass --database-url or set HOOKLEDGER_DATABASE_URL");
    }
    url = new DatabaseUrl(databaseUrl.trim());
    // a person at a terminal waits longer than a load balancer's probe: reads get a minute, not 2 s
    return InboxAdmin.builder(url.dataSource()).schema(schema).maxAttempts(maxAttempts)
        .stuckAfter(DurationText.parse(stuckAfter)).readTimeout(java.time.Duration.ofMinutes(1)).build();
  }

  /** The global options a follow-up command must repeat to see the same ledger (never the database URL). */
  List<String> ledgerOptions() {
    List<String> options = new ArrayList<>();
    if (!"hookledger".equals(schema)) {
      options.addAll(List.of("--schema", schema));
    }
    return options;
  }

  boolean json() {
    return json;
  }

  /** Prints a JSON document (pretty, for people who read it too) or nothing. */
  void printJson(CommandLine line, JsonNode node) {
    try {
      line.getOut().println(VisibleJson.PRETTY.writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON output", e);
    }
  }

  /** Prints {@code json} with {@code --json}, else the line of text. */
  void print(CommandLine line, JsonNode json, String text) {
    if (this.json) {
      printJson(line, json);
    } else {
      line.getOut().println(text);
    }
  }

  private int fail(Exception e, CommandLine line) {
    int code = e instanceof OperationRefusedException ? REFUSED
        : e instanceof IllegalArgumentException || e instanceof UnsupportedOperationException
            || e instanceof CommandLine.ParameterException ? USAGE
        : FAILED;
    String reason = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    if (e instanceof LedgerUnavailableException && url != null) {
      reason = reason + " (database " + url.masked() + ")";
    }
    PrintWriter err = line.getErr();
    err.println("hookledger: " + scrub(reason));
    if (json) {
      // a script reading stdout gets a document on failure too, not an empty stream
      printJson(line, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
          .put("error", scrub(reason)).put("exitCode", code));
    }
    if (verbose) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      err.print(scrub(trace.toString()));
    }
    err.flush();
    return code;
  }

  private String scrub(String text) {
    return url == null ? text : url.scrub(text);
  }

  /**
   * Library logs are for applications; the command line's own output says what happened. With
   * slf4j-simple (as in the samples jar) only warnings are shown unless {@code --verbose}; jOOQ's
   * banner is never shown.
   */
  private static void quietLibraries(boolean verbose) {
    System.setProperty("org.jooq.no-logo", "true");
    System.setProperty("org.jooq.no-tips", "true");
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "info" : "warn");
    }
  }

  /** The version from the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = HookledgerCli.class.getPackage().getImplementationVersion();
      return new String[] {"hookledger " + (v == null ? "(development build)" : v)};
    }
  }
}
