package dev.hookledger.runtime.internal.inbox;

import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The {@code lease_owner} of one runtime instance: host and process for the operator who reads it,
 * and a random part so that two runtimes in one process (or a restarted process with a reused pid)
 * never share one.
 */
public final class OwnerToken {
  private OwnerToken() {}

  public static String create() {
    String host = System.getenv().getOrDefault("HOSTNAME", System.getenv().getOrDefault("COMPUTERNAME", "host"));
    byte[] random = new byte[4];
    ThreadLocalRandom.current().nextBytes(random);
    return host.toLowerCase(Locale.ROOT) + "/" + ProcessHandle.current().pid() + "/" + HexFormat.of().formatHex(random);
  }
}
