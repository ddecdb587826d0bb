package dev.hookledger.runtime.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** A subcommand: reaches the global options and the admin through its parent. */
abstract class AdminCommand implements Runnable {
  @ParentCommand
  HookledgerCli cli;

  @Spec
  CommandSpec spec;

  CommandLine line() {
    return spec.commandLine();
  }

  /**
   * A usage error of {@code line}, typed as a plain {@code RuntimeException} so that
   * {@link HookledgerCli}, which throws it, names no picocli type the JVM must load to verify it:
   * its {@code main} says in one line that picocli is missing, rather than failing to initialize.
   */
  static RuntimeException usage(CommandLine line, String message) {
    return new CommandLine.ParameterException(line, message);
  }
}
