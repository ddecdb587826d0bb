package dev.hookledger.samples.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovers a data directory from a JVM that was killed without stopping its embedded PostgreSQL.
 * The postmaster outlives the JVM that started it, still holding the directory, and a new start
 * would fail with "another server might be running". PostgreSQL writes its pid on the first line
 * of {@code postmaster.pid}; if that process is alive and is a postgres, it is asked to shut down
 * fast (SIGINT in PostgreSQL's terms; {@link ProcessHandle#destroy()} sends SIGTERM, a smart
 * shutdown, which is as quick when nobody is connected).
 */
final class OrphanedPostmaster {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanedPostmaster.class);
  private static final Duration WAIT = Duration.ofSeconds(60);

  private OrphanedPostmaster() {}

  static void stopIfLeftIn(Path dataDirectory) {
    Path pidFile = dataDirectory.resolve("postmaster.pid");
    if (!Files.isRegularFile(pidFile)) {
      return;
    }
    Optional<ProcessHandle> postmaster = pidIn(pidFile).flatMap(ProcessHandle::of)
        .filter(ProcessHandle::isAlive)
        .filter(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(false));
    if (postmaster.isEmpty()) {
      return; // a stale file from a crash: PostgreSQL removes it itself on start
    }
    ProcessHandle p = postmaster.get();
    LOG.warn("stopping PostgreSQL pid {} left running in {} by an earlier run that did not shut down",
        p.pid(), dataDirectory);
    p.destroy();
    try {
      p.onExit().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("PostgreSQL pid " + p.pid() + " still holds " + dataDirectory
          + " after " + WAIT.toSeconds() + " s; stop it and start again", e);
    }
  }

  private static Optional<Long> pidIn(Path pidFile) {
    try {
      List<String> lines = Files.readAllLines(pidFile);
      return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + pidFile, e);
    }
  }
}
