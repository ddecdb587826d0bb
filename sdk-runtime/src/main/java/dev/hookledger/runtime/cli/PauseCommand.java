package dev.hookledger.runtime.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "pause", description = {"Pause a destination of the outbox on every node: its effects wait (no attempt"
    + " is made, none dies) until 'resume'. An attempt running now finishes."})
final class PauseCommand extends AdminCommand {
  @Parameters(index = "0", paramLabel = "DESTINATION")
  private String destination;

  @Override
  public void run() {
    boolean changed = cli.admin().outbox().pause(destination);
    cli.print(line(), JsonNodeFactory.instance.objectNode().put("destination", destination).put("paused", true)
        .put("changed", changed), changed ? "paused " + destination + ": its effects wait until resumed"
        : destination + " was paused already");
  }
}
