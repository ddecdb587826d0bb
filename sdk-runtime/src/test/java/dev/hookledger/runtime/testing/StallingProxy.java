package dev.hookledger.runtime.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on loopback in front of a server (the test PostgreSQL), that can be told to stop
 * forwarding: from then on it accepts connections and reads nothing, and bytes already on their way
 * are held, as a database host that froze or a network path that drops packets silently. Nothing is
 * refused or reset, so the client sees no error: only its own timeouts can end its waits.
 */
public final class StallingProxy implements AutoCloseable {
  private final ServerSocket server;
  private final String targetHost;
  private final int targetPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile boolean stalled;

  private StallingProxy(String targetHost, int targetPort) throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    Thread accept = new Thread(this::accept, "stalling-proxy-accept");
    accept.setDaemon(true);
    accept.start();
  }

  public static StallingProxy to(String host, int port) {
    try {
      return new StallingProxy(host, port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the proxy", e);
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Stops forwarding in both directions, on the connections open and on every new one. */
  public void stall() {
    stalled = true;
  }

  /**
   * Forwards again on the connections whose pumps still run, and on new ones; those accepted while
   * stalled stay dead, as after a real outage the client's own timeouts end them.
   */
  public void resume() {
    stalled = false;
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : sockets) {
      s.close();
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        if (stalled) {
          continue; // accepted, never answered
        }
        Socket upstream = new Socket(targetHost, targetPort);
        sockets.add(upstream);
        pump(client.getInputStream(), upstream.getOutputStream());
        pump(upstream.getInputStream(), client.getOutputStream());
      } catch (IOException e) {
        // closed, or the target refused: the client's connection is dropped with it
      }
    }
  }

  private void pump(InputStream in, OutputStream out) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[8192];
      try {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          while (stalled) {
            Thread.sleep(50); // hold what was read, and read no more
          }
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // a side closed
      }
    }, "stalling-proxy-pump");
    t.setDaemon(true);
    t.start();
  }
}
