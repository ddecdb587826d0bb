package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.EventStatus;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EventShowTest {
  private final LedgerFixture ledger = new LedgerFixture();
  private final InboxAdmin admin = ledger.admin();

  @Test
  void showsTheWholeEventButNoSignatureLikeHeader() {
    ledger.row("github", "guid-1").scope("hook-9").type("issues.opened").status("dead").attempts(8)
        .lastError("java.lang.IllegalStateException: no such issue")
        .secretId("github-2025")
        .lease("worker-a", Instant.parse("2025-03-01T12:05:00Z"))
        .body("{\"action\":\"opened\",\"title\":\"caf\u00e9\"}")
        .headers(Map.of(
            "x-github-event", "issues",
            "x-github-hook-id", "9",
            "x-hub-signature-256", "sha256=abc",
            "authorization", "Bearer x",
            "x-shopify-hmac-sha256", "abc",
            "x-api-token", "t",
            "x-webhook-secret", "s"))
        .insert();

    EventDetail e = admin.show("github", "hook-9", "guid-1").orElseThrow();

    assertEquals(Map.of("x-github-event", "issues", "x-github-hook-id", "9"), e.headers());
    assertEquals("{\"action\":\"opened\",\"title\":\"caf\u00e9\"}", e.body());
    assertEquals(35, e.bodyLength(), "bytes, not characters");
    assertEquals("github-2025", e.secretId().orElseThrow());
    assertEquals(EventStatus.DEAD, e.summary().status());
    assertEquals(8, e.summary().attempts());
    assertEquals("java.lang.IllegalStateException: no such issue", e.summary().lastError().orElseThrow());
    assertEquals("issues.opened", e.summary().type());
    assertEquals(NOW, e.summary().receivedAt());
    assertEquals("worker-a", e.leaseOwner().orElseThrow());
    assertTrue(e.payload().isEmpty());
  }

  @Test
  void scopeIsPartOfTheKey() {
    ledger.row("github", "guid-1").scope("hook-1").insert();

    assertEquals(Optional.empty(), admin.show("github", "hook-2", "guid-1"));
    assertEquals(Optional.empty(), admin.show("github", "", "guid-1"));
    assertTrue(admin.show("github", "hook-1", "guid-1").isPresent());
  }
}
