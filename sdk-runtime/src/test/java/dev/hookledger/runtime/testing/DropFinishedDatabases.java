package dev.hookledger.runtime.testing;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Drops the test databases of each test class once it has finished ({@link TestDatabase#dropMadeSoFar()}),
 * registered for sdk-runtime's tests through {@code META-INF/services}.
 *
 * <p>A fork of sdk-runtime's suite makes a few hundred databases of ~8 MB each on its one embedded server.
 * Kept to the end, they were deleted file by file by the server's shutdown hook as the JVM exited: ~14 s
 * on a quiet machine, and on a loaded one past surefire's 30 s for a fork to exit, which then killed the
 * fork and left the rest of the data directory in the temporary directory. A class's databases are its
 * own (each class makes them in its fields, its static fields or its tests), and a fork runs one class at
 * a time, so when a class ends every database made so far is done with.
 */
public final class DropFinishedDatabases implements TestExecutionListener {
  /** The unique id of the outermost class running, null between classes. */
  private String running;

  @Override
  public void executionStarted(TestIdentifier test) {
    if (running == null && test.getSource().filter(ClassSource.class::isInstance).isPresent()) {
      running = test.getUniqueId();
    }
  }

  @Override
  public void executionFinished(TestIdentifier test, TestExecutionResult result) {
    if (test.getUniqueId().equals(running)) {
      running = null;
      TestDatabase.dropMadeSoFar();
    }
  }
}
