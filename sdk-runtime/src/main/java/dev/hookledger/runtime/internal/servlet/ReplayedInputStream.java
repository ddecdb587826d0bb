package dev.hookledger.runtime.internal.servlet;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Objects;

/**
 * A request body read again: the bytes the filter already read, then, if it stopped early, the
 * rest of the container's own stream, within a {@link ReadDeadline} that starts when the rest is
 * first read. Why the deadline: the bytes already read stay reserved in the runtime's body budget
 * until the request is done, and a sender that trickles the rest a byte at a time (never idle long
 * enough for the container's idle timeout) would otherwise hold them for as long as it likes (seen
 * here: two forged bodies held the whole budget, so signed deliveries went unrecorded). Past it, a
 * blocking read fails with a {@link SocketTimeoutException}, as a container's read timeout fails it.
 * Not thread-safe, like any request stream.
 */
final class ReplayedInputStream extends ServletInputStream {
  private final byte[] read;
  private final ServletInputStream rest;
  private final ReadDeadline deadline;
  private int position;
  private long restEnd; // when the rest must have arrived, set at its first read
  private boolean restStarted;

  /**
   * @param rest the container's stream, still holding the rest of the body; null if {@code read} is all of it
   * @param deadline how long the rest may take to arrive, from its first read
   */
  ReplayedInputStream(byte[] read, ServletInputStream rest, ReadDeadline deadline) {
    this.read = read;
    this.rest = rest;
    this.deadline = deadline;
  }

  @Override
  public int read() throws IOException {
    if (position < read.length) {
      return read[position++] & 0xff;
    }
    if (rest == null) {
      return -1;
    }
    byte[] one = new byte[1];
    int n;
    do {
      n = readRest(one, 0, 1);
    } while (n == 0);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (position < read.length) {
      int n = Math.min(len, read.length - position);
      System.arraycopy(read, position, b, off, n);
      position += n;
      return n;
    }
    return rest == null ? -1 : readRest(b, off, len);
  }

  private int readRest(byte[] b, int off, int len) throws IOException {
    if (!restStarted) {
      restStarted = true;
      restEnd = deadline.endFromNow();
    }
    try (ReadDeadline.Watch watch = deadline.startUntil(restEnd)) {
      if (watch.expired()) {
        throw timedOut();
      }
      int n;
      try {
        n = rest.read(b, off, len);
      } catch (IOException e) {
        if (watch.expired()) {
          throw timedOut();
        }
        throw e;
      }
      if (watch.expired()) {
        throw timedOut(); // the container ignored the interrupt and returned with the next bytes
      }
      return n;
    }
  }

  private SocketTimeoutException timedOut() {
    return new SocketTimeoutException("the rest of the request body did not arrive within " + deadline.limit());
  }

  @Override
  public int available() throws IOException {
    return read.length - position + (rest == null ? 0 : rest.available());
  }

  @Override
  public boolean isFinished() {
    return position >= read.length && (rest == null || rest.isFinished());
  }

  @Override
  public boolean isReady() {
    return position < read.length || rest == null || rest.isReady();
  }

  /**
   * With the whole body in memory, it is available at once: the listener hears
   * {@code onDataAvailable} and {@code onAllDataRead} now. Otherwise the container's stream calls
   * it, and reading this stream serves the bytes already read first.
   */
  @Override
  public void setReadListener(ReadListener listener) {
    Objects.requireNonNull(listener, "listener");
    if (rest != null) {
      rest.setReadListener(listener);
      return;
    }
    try {
      listener.onDataAvailable();
      listener.onAllDataRead();
    } catch (IOException e) {
      listener.onError(e);
    }
  }
}
