package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.SchemaMigration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "migrate", description = {
    "Bring the ledger schema to the version this hookledger needs: each missing version once, in order (safe to repeat).",
    "Says 'created', naming the database and schema, when it made a new ledger: a typo in --schema shows there.",
    "--dry-run prints the SQL it would run and changes nothing."})
final class MigrateCommand extends AdminCommand {
  @Option(names = "--dry-run", description = "print the SQL of each version that would be applied; change nothing")
  private boolean dryRun;

  @Override
  public void run() {
    InboxAdmin admin = cli.admin();
    String database = admin.databaseName();
    int latest = InboxAdmin.latestSchemaVersion();
    if (dryRun) {
      dryRun(admin, database, latest);
      return;
    }
    int from = admin.schemaVersion();
    boolean created = admin.migrate();
    ObjectNode json = JsonNodeFactory.instance.objectNode().put("schema", admin.schema()).put("database", database)
        .put("created", created).put("fromVersion", from).put("version", latest);
    String where = "ledger schema " + admin.schema() + " in database " + database;
    cli.print(line(), json, created ? "created " + where + " at version " + latest
        : from < latest ? "migrated " + where + " from version " + from + " to " + latest
        : where + " is up to date (version " + latest + ")");
  }

  private void dryRun(InboxAdmin admin, String database, int latest) {
    int from = admin.schemaVersion();
    List<SchemaMigration> pending = admin.pendingMigrations();
    if (cli.json()) {
      ArrayNode versions = JsonNodeFactory.instance.arrayNode();
      pending.forEach(m -> versions.addObject().put("version", m.version()).put("description", m.description())
          .put("inTransaction", m.inTransaction()).put("sql", m.sql()));
      ObjectNode json = JsonNodeFactory.instance.objectNode().put("schema", admin.schema()).put("database", database)
          .put("fromVersion", from).put("version", latest).put("dryRun", true);
      json.set("migrations", versions);
      cli.printJson(line(), json);
      return;
    }
    StringBuilder out = new StringBuilder("-- ledger schema " + admin.schema() + " in database " + database
        + " is at version " + from + "; this hookledger needs " + latest);
    if (pending.isEmpty()) {
      out.append("\n-- nothing to apply (dry run)");
    }
    for (SchemaMigration m : pending) {
      out.append("\n\n-- V").append(m.version()).append(" (").append(m.description()).append("): ")
          .append(m.inTransaction() ? "in one transaction" : "one statement at a time, outside a transaction")
          .append('\n').append(m.sql().strip());
    }
    if (!pending.isEmpty()) {
      out.append("\n\n-- nothing was applied (dry run)");
    }
    line().getOut().println(out);
  }
}
