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
}
