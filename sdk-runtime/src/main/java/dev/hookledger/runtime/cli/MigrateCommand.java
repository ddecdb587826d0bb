package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookledger.runtime.admin.InboxAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "migrate", description = "Create whatever part of the ledger schema is missing (safe to repeat).")
final class MigrateCommand implements Runnable {
  @ParentCommand
  private HookledgerCli cli;

  @Spec
  private CommandSpec spec;

  @Override
  public void run() {
    InboxAdmin admin = cli.admin();
    admin.migrate();
    cli.print(spec.commandLine(), JsonNodeFactory.instance.objectNode().put("schema", admin.schema()),
        "ledger schema " + admin.schema() + " is up to date");
  }
}
