package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookledger.runtime.admin.InboxAdmin;
import picocli.CommandLine.Command;

@Command(name = "migrate", description = {"Create whatever part of the ledger schema is missing (safe to repeat).",
    "Says 'created', naming the database and schema, when it made a new ledger: a typo in --schema shows there."})
final class MigrateCommand extends AdminCommand {
  @Override
  public void run() {
    InboxAdmin admin = cli.admin();
    boolean created = admin.migrate();
    String database = admin.databaseName();
    cli.print(line(), JsonNodeFactory.instance.objectNode().put("schema", admin.schema()).put("database", database)
            .put("created", created),
        created ? "created ledger schema " + admin.schema() + " in database " + database
            : "ledger schema " + admin.schema() + " in database " + database + " is up to date");
  }
}
