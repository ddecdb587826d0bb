package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookledger.runtime.admin.InboxAdmin;
import picocli.CommandLine.Command;

@Command(name = "migrate", description = "Create whatever part of the ledger schema is missing (safe to repeat).")
final class MigrateCommand extends AdminCommand {
  @Override
  public void run() {
    InboxAdmin admin = cli.admin();
    admin.migrate();
    cli.print(line(), JsonNodeFactory.instance.objectNode().put("schema", admin.schema()),
        "ledger schema " + admin.schema() + " is up to date");
  }
}
