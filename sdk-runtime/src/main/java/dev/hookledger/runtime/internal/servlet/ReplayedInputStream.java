package dev.hookledger.runtime.internal.servlet;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;
import java.util.Objects;

/**
 * A request body read again: the bytes the filter already read, then, if it stopped early, the
 * rest of the container's own stream. Not thread-safe, like any request stream.
 */
final class ReplayedInputStream extends ServletInputStream {
  private final byte[] read;
  private final ServletInputStream rest;
  private int position;

  /** @param rest the container's stream, still holding the rest of the body; null if {@code read} is all of it */
  ReplayedInputStream(byte[] read, ServletInputStream rest) {
    this.read = read;
    this.rest = rest;
  }

  @Override
  public int read() throws IOException {
    if (position < read.length) {
      return read[position++] & 0xff;
    }
    return rest == null ? -1 : rest.read();
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
    return rest == null ? -1 : rest.read(b, off, len);
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
