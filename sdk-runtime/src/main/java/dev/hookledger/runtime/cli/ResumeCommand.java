package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "resume", description = {"Resume a paused destination of the outbox: its effects are sent again"
    + " (an open breaker still probes first)."})
final class ResumeCommand extends AdminCommand {
  @Parameters(index = "0", paramLabel = "DESTINATION")
  private String destination;

  @Override
  public void run() {
    boolean changed = cli.admin().outbox().resume(destination);
    cli.print(line(), JsonNodeFactory.instance.objectNode().put("destination", destination).put("paused", false)
        .put("changed", changed), changed ? "resumed " + destination : destination + " was not paused");
  }
}
