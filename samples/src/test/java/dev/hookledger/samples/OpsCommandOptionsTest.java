package dev.hookledger.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** Global options are accepted before an operations command, as hookledger's own command line takes them. */
class OpsCommandOptionsTest {
  @Test
  void globalOptionsBeforeTheCommandMoveAfterIt() {
    assertArrayEquals(new String[] {"status", "--json"}, OpsCommand.globalOptionsAfterCommand("--json", "status"));
    assertArrayEquals(new String[] {"list", "--database-url", "jdbc:postgresql://h/db", "--schema=ops", "--status", "dead"},
        OpsCommand.globalOptionsAfterCommand("--database-url", "jdbc:postgresql://h/db", "--schema=ops", "list",
            "--status", "dead"));
    assertArrayEquals(new String[] {"retry", "--data-dir", "/tmp/db", "--verbose", "--dead"},
        OpsCommand.globalOptionsAfterCommand("--data-dir", "/tmp/db", "--verbose", "retry", "--dead"));
  }

  @Test
  void anythingElseIsLeftAsItIs() {
    String[][] untouched = {
        {"status", "--json"}, {"--json", "serve"}, {"--version"}, {"--json"}, {}, {"serve", "--port", "0"},
        {"--schema"}};
    for (String[] args : untouched) {
      assertArrayEquals(args, OpsCommand.globalOptionsAfterCommand(args));
    }
  }
}
