package dev.hookledger.samples.bench;

import dev.hookledger.InboundDelivery;
import dev.hookledger.samples.traffic.WebhookClient.Answer;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One persistent HTTP/1.1 connection that posts deliveries one after another, as a provider's
 * sender with keep-alive does. Written for the load generator: the JDK's {@code HttpClient} spends
 * more CPU per request than the server under test (its selector thread, futures and header maps),
 * which on a small machine measured the client, not the server. This writes the request in one
 * buffer and reads the status line, the headers it needs ({@code Content-Length},
 * {@code Transfer-Encoding}, {@code Connection}) and the body. Not thread-safe: one per client thread.
 */
final class KeepAliveConnection implements AutoCloseable {
  private static final int TIMEOUT_MILLIS = 30_000;
  private static final int MAX_HEADER_BYTES = 64 * 1024;

  private final URI base;
  private final String hostHeader;
  private final ByteArrayOutputStream request = new ByteArrayOutputStream(8192);
  private final StringBuilder line = new StringBuilder(128);
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  KeepAliveConnection(URI base) {
    if (!"http".equals(base.getScheme())) {
      throw new IllegalArgumentException("the load generator speaks plain http only, but the target is " + base);
    }
    this.base = base;
    this.hostHeader = base.getHost() + ":" + port(base);
  }

  private static int port(URI base) {
    return base.getPort() == -1 ? 80 : base.getPort();
  }

  /** Posts {@code delivery}'s exact bytes and headers to its path and waits for the answer. */
  Answer send(InboundDelivery delivery) {
    byte[] bytes = encode(delivery);
    long start = System.nanoTime();
    try {
      if (socket == null) {
        connect();
      }
      out.write(bytes);
      out.flush();
      return read(start);
    } catch (IOException first) {
      // the server may close an idle keep-alive connection: one fresh connection, then give up
      close();
      try {
        connect();
        start = System.nanoTime();
        out.write(bytes);
        out.flush();
        return read(start);
      } catch (IOException e) {
        close();
        e.addSuppressed(first);
        throw new UncheckedIOException("cannot post " + delivery + " to " + base, e);
      }
    }
  }

  private byte[] encode(InboundDelivery delivery) {
    request.reset();
    StringBuilder head = new StringBuilder(512)
        .append("POST ").append(delivery.path()).append(" HTTP/1.1\r\n")
        .append("Host: ").append(hostHeader).append("\r\n")
        .append("Content-Length: ").append(delivery.bodyBytes().length).append("\r\n");
    for (Map.Entry<String, List<String>> h : delivery.headers().asMap().entrySet()) {
      if (h.getKey().equalsIgnoreCase("content-length") || h.getKey().equalsIgnoreCase("host")) {
        continue;
      }
      for (String v : h.getValue()) {
        head.append(h.getKey()).append(": ").append(v).append("\r\n");
      }
    }
    head.append("\r\n");
    byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    request.write(headBytes, 0, headBytes.length);
    request.write(delivery.bodyBytes(), 0, delivery.bodyBytes().length);
    return request.toByteArray();
  }

  private void connect() throws IOException {
    Socket s = new Socket();
    s.setTcpNoDelay(true);
    s.setSoTimeout(TIMEOUT_MILLIS);
    s.connect(new InetSocketAddress(base.getHost(), port(base)), 5_000);
    socket = s;
    in = new BufferedInputStream(s.getInputStream(), 8192);
    out = s.getOutputStream();
  }

  private Answer read(long start) throws IOException {
    String status = readLine();
    if (!status.startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP answer: " + status);
    }
    int code = Integer.parseInt(status.substring(9, 12));
    long length = -1;
    boolean chunked = false;
    boolean close = status.startsWith("HTTP/1.0");
    int headerBytes = 0;
    for (String h = readLine(); !h.isEmpty(); h = readLine()) {
      headerBytes += h.length();
      if (headerBytes > MAX_HEADER_BYTES) {
        throw new IOException("the answer's headers exceed " + MAX_HEADER_BYTES + " bytes");
      }
      int colon = h.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = h.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> length = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        case "connection" -> close = value.equalsIgnoreCase("close");
        default -> { }
      }
    }
    String body = chunked ? readChunked() : readBody(length);
    long latency = System.nanoTime() - start;
    if (close || length < 0 && !chunked) {
      close();
    }
    return new Answer(code, body, Duration.ofNanos(latency));
  }

  private String readBody(long length) throws IOException {
    if (length < 0) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8); // ends with the connection
    }
    return new String(in.readNBytes((int) length), StandardCharsets.UTF_8);
  }

  private String readChunked() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String size = readLine();
      int semicolon = size.indexOf(';');
      int n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
      if (n == 0) {
        while (!readLine().isEmpty()) {
          // trailers: none expected
        }
        return body.toString(StandardCharsets.UTF_8);
      }
      body.write(in.readNBytes(n));
      readLine();
    }
  }

  private String readLine() throws IOException {
    line.setLength(0);
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the server closed the connection mid-answer");
      }
      if (b == '\n') {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
          line.setLength(end - 1);
        }
        return line.toString();
      }
      if (line.length() > MAX_HEADER_BYTES) {
        throw new IOException("a line of the answer exceeds " + MAX_HEADER_BYTES + " bytes");
      }
      line.append((char) b);
    }
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
      socket = null;
      in = null;
      out = null;
    }
  }
}
