package dev.hookledger.samples.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.server.SampleSecrets;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a team writes without an SDK, for comparison only: the inline design behind a servlet. It
 * checks each provider's HMAC by hand, takes the event id, parses the body and, in one transaction
 * per request, stores it ({@code INSERT ... ON CONFLICT DO NOTHING}) and applies the sample handler's
 * effect if it was new ({@link InlineDesign}), on a HikariCP pool. It does not keep headers, bound
 * memory, retry a failed effect or order events: the peer a user replaces with hookledger, run on the
 * same Jetty, load clients and database in the same bench run.
 */
final class HandWrittenEndpoint implements AutoCloseable {
  static final String SCHEMA = "bench_hand_written";
  private final HandWrittenServer server;

  private HandWrittenEndpoint(HandWrittenServer server) {
    this.server = server;
  }

  /** Starts it on a free loopback port, with a pool of {@code connections}, on tables of its own. */
  static HandWrittenEndpoint start(String jdbcUrl, SampleSecrets secrets, int connections) throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setMaximumPoolSize(connections);
    config.setAutoCommit(false);
    config.setPoolName("bench-hand-written");
    HikariDataSource pool = new HikariDataSource(config);
    InlineDesign design = new InlineDesign(SCHEMA);
    try (Connection c = pool.getConnection()) {
      design.prepare(c);
      c.commit();
    }
    return new HandWrittenEndpoint(HandWrittenServer.serve("bench-hand-written-http",
        new Endpoint(pool, design, secrets), pool, SCHEMA, () -> {}));
  }

  URI uri() {
    return server.uri();
  }

  /** Its effect tables, in the sample application's terms. */
  SampleState state() throws SQLException {
    return server.state();
  }

  @Override
  public void close() {
    server.close();
  }

  /** The servlet itself: about what a provider's own integration guide shows, plus the insert. */
  private static final class Endpoint extends HttpServlet {
    private final HikariDataSource pool;
    private final InlineDesign design;
    private final Signatures signatures;

    Endpoint(HikariDataSource pool, InlineDesign design, SampleSecrets secrets) {
      this.pool = pool;
      this.design = design;
      this.signatures = new Signatures(secrets);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
      byte[] body = request.getInputStream().readAllBytes();
      Signatures.Verified verified = signatures.verify(request, response, body);
      if (verified == null) {
        return;
      }
      String provider = verified.provider();
      String eventId = verified.eventId();
      InlineDesign.Effect effect = InlineDesign.effect(provider, eventId, body);
      try (Connection c = pool.getConnection()) {
        design.write(c, effect, body);
      } catch (SQLException e) {
        response.sendError(503);
        return;
      }
      response.setContentType("text/plain");
      response.getWriter().write("accepted");
    }
  }

  /**
   * Each provider's HMAC checked by hand on the JDK ({@code javax.crypto}), as the providers' guides
   * show it, and the event id taken from the header or body that carries it; shared by the
   * hand-written peers (h) and (hs).
   */
  static final class Signatures {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final byte[] stripeKey;
    private final byte[] githubKey;
    private final byte[] shopifyKey;

    Signatures(SampleSecrets secrets) {
      this.stripeKey = secrets.stripe().getBytes(StandardCharsets.UTF_8);
      this.githubKey = secrets.github().getBytes(StandardCharsets.UTF_8);
      this.shopifyKey = secrets.shopify().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The provider (the path after the servlet's) and event id of a delivery whose signature holds;
     * null, with 401 sent, if it does not: the head of both peers' {@code doPost}.
     */
    Verified verify(HttpServletRequest request, HttpServletResponse response, byte[] body) throws IOException {
      String provider = request.getPathInfo() == null ? "" : request.getPathInfo().substring(1);
      String eventId = eventId(provider, request, body);
      if (eventId == null) {
        response.sendError(401);
        return null;
      }
      return new Verified(provider, eventId);
    }

    /** A delivery's provider and event id, its signature checked. */
    record Verified(String provider, String eventId) {}

    /** The event id of a delivery whose signature holds; null if it does not (or the provider is unknown). */
    private String eventId(String provider, HttpServletRequest request, byte[] body) throws IOException {
      try {
        return switch (provider) {
          case "github" -> verified(request.getHeader("X-Hub-Signature-256"), "sha256=" + hex(hmac(githubKey, body)))
              ? request.getHeader("X-GitHub-Delivery") : null;
          case "shopify" -> verified(request.getHeader("X-Shopify-Hmac-Sha256"),
              Base64.getEncoder().encodeToString(hmac(shopifyKey, body)))
              ? request.getHeader("X-Shopify-Webhook-Id") : null;
          case "stripe" -> stripe(request.getHeader("Stripe-Signature"), body);
          default -> null;
        };
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    private String stripe(String header, byte[] body) throws GeneralSecurityException, IOException {
      if (header == null) {
        return null;
      }
      String t = null;
      String v1 = null;
      for (String part : header.split(",")) {
        if (part.startsWith("t=")) {
          t = part.substring(2);
        } else if (part.startsWith("v1=") && v1 == null) {
          v1 = part.substring(3);
        }
      }
      if (t == null || v1 == null || Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(t)) > 300) {
        return null;
      }
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(stripeKey, "HmacSHA256"));
      mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
      return verified(v1, hex(mac.doFinal(body))) ? JSON.readTree(body).path("id").asText(null) : null;
    }

    private static byte[] hmac(byte[] key, byte[] body) throws GeneralSecurityException {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(body);
    }

    private static String hex(byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }

    private static boolean verified(String given, String expected) {
      return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
          expected.getBytes(StandardCharsets.UTF_8));
    }
  }
}
