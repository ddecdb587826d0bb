package dev.hookledger.runtime.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 POST over a plain socket, sent as slowly as the test likes: headers first, then the
 * body piece by piece, while a reader thread takes the answer the moment it comes (a server may
 * answer before the body is sent, and close). What {@code java.net.http} cannot do: send a body
 * slowly, or stop sending when answered. Not thread-safe: one test thread drives it.
 */
public final class RawPost implements AutoCloseable {
  private final Socket socket;
  private final OutputStream out;
  private final boolean chunked;
  private final ByteArrayOutputStream received = new ByteArrayOutputStream();
  private final Thread reader;
  private volatile boolean ended;

  private RawPost(Socket socket, boolean chunked) throws IOException {
    this.socket = socket;
    this.out = socket.getOutputStream();
    this.chunked = chunked;
    InputStream in = socket.getInputStream();
    this.reader = new Thread(() -> read(in), "raw-post-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Connects and sends the request line and headers.
   *
   * @param contentLength the declared {@code Content-Length}, or -1 to send the body chunked
   */
  public static RawPost open(URI server, String path, Map<String, String> headers, long contentLength) {
    try {
      Socket socket = new Socket(server.getHost(), server.getPort());
      socket.setSoTimeout(0);
      RawPost post = new RawPost(socket, contentLength < 0);
      StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: " + server.getHost() + ":"
          + server.getPort() + "\r\n");
      headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
      head.append(contentLength < 0 ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + contentLength + "\r\n");
      head.append("\r\n");
      post.out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      post.out.flush();
      return post;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to " + server, e);
    }
  }

  /**
   * Sends the next part of the body.
   *
   * @return false if the server no longer takes it (it answered and closed): stop sending
   */
  public boolean send(byte[] part) {
    try {
      if (chunked) {
        out.write((Integer.toHexString(part.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(part);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      } else {
        out.write(part);
      }
      out.flush();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Ends a chunked body (no-op for a declared length); false if the server no longer takes it. */
  public boolean finish() {
    return !chunked || send0("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
  }

  private boolean send0(byte[] raw) {
    try {
      out.write(raw);
      out.flush();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether any byte of an answer has arrived. */
  public boolean answered() {
    synchronized (received) {
      return received.size() > 0;
    }
  }

  /** Waits for the whole answer (its head and {@code Content-Length} bytes of body). */
  public Answer awaitAnswer(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (received) {
      while (true) {
        Answer answer = Answer.parse(received.toByteArray());
        if (answer != null) {
          return answer;
        }
        long left = Duration.ofNanos(deadline - System.nanoTime()).toMillis();
        if (ended || left <= 0) {
          throw new AssertionError("no complete answer within " + timeout + " (connection "
              + (ended ? "closed" : "open") + "); received: " + received.toString(StandardCharsets.ISO_8859_1));
        }
        received.wait(Math.min(left, 100));
      }
    }
  }

  private void read(InputStream in) {
    byte[] buffer = new byte[8192];
    try {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        synchronized (received) {
          received.write(buffer, 0, n);
          received.notifyAll();
        }
      }
    } catch (IOException e) {
      // reset by the server after its answer: what arrived is kept
    } finally {
      synchronized (received) {
        ended = true;
        received.notifyAll();
      }
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  /** The status, headers (lower-case names) and body text of an answer. */
  public record Answer(int status, Map<String, String> headers, String body) {
    static Answer parse(byte[] bytes) {
      String text = new String(bytes, StandardCharsets.ISO_8859_1);
      int end = text.indexOf("\r\n\r\n");
      if (end < 0) {
        return null;
      }
      String[] lines = text.substring(0, end).split("\r\n");
      Map<String, String> headers = new LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
      }
      int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
      if (bytes.length < end + 4 + length) {
        return null;
      }
      String body = new String(bytes, end + 4, length, StandardCharsets.UTF_8);
      return new Answer(Integer.parseInt(lines[0].split(" ")[1]), headers, body);
    }

    @Override
    public String toString() {
      return status + " " + body.strip();
    }
  }
}
