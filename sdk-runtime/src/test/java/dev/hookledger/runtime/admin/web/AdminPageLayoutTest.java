package dev.hookledger.runtime.admin.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.admin.RetrySelection;
import dev.hookledger.runtime.testing.TestServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin page in a real Chromium at 1280 px, as an operator sees it: nothing scrolls sideways,
 * every retry button is in view, and each event is one line however long its cause; and at 390 px,
 * a phone: nothing scrolls sideways, each event is a card with its cause wrapped in full at a
 * readable size, and a bulk retry works end to end. Screenshots
 * are saved under {@code target/screenshots/} for review. Needs Debian's {@code chromium} and
 * {@code chromium-driver} ({@code -Pbrowser}; {@code .ci/run} installs them).
 */
@Tag("browser")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminPageLayoutTest {
  private static final String TOKEN = "admin-token-0123456789abcdef";
  private static final int PHONE = 390;
  private static final Path SCREENSHOTS = Path.of("target", "screenshots");
  private static final String LONG_CAUSE = "the inventory service at inventory.internal:8080 answered 503 Service"
      + " Unavailable for reservation of order 820982911946154508 after 3 retries within the client's 2 s budget;"
      + " the circuit breaker is now open for 30 s and every reservation fails fast until it closes again";

  /**
   * One ledger and one server for the class (a database, its migration and 290 rows cost seconds a
   * test): the tests only read it, but for the bulk retry, which runs last.
   */
  private static LedgerFixture ledger;
  private static TestServer server;
  /** One browser for the class (its start costs seconds); each test starts at 1280 px on a blank page. */
  private static ChromeDriver chrome;

  @BeforeAll
  static void startChromium() throws Exception {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(executable("chromium", "/usr/bin/chromium"));
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--window-size=1280,1000", "--hide-scrollbars", "--force-device-scale-factor=1",
        // a closed network (CI) refuses Chromium's own background connections: do not make them
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + Files.createTempDirectory("hookledger-chromium"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(executable("chromedriver", "/usr/bin/chromedriver"))).build();
    chrome = new ChromeDriver(service, options);
    chrome.executeCdpCommand("Network.enable", Map.of());
    chrome.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Authorization", "Bearer " + TOKEN)));
    Files.createDirectories(SCREENSHOTS);
    ledger = new LedgerFixture();
    realisticLedger();
    // the system clock, as in production: ages and next attempts relative to the database's now
    InboxAdmin admin = InboxAdmin.builder(ledger.database.dataSource()).build();
    server = TestServer.start(context -> context.addServlet(
        new ServletHolder(new AdminServlet(admin, AdminAuthorizer.bearerToken(TOKEN),
            AdminServletTest.FIXTURE_SOURCES)), "/admin/*"));
  }

  @AfterAll
  static void stopChromium() throws Exception {
    if (server != null) {
      server.close();
    }
    if (chrome != null) {
      chrome.quit();
    }
  }

  @AfterEach
  void blank() {
    chrome.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
    chrome.get("about:blank");
  }

  @Test
  void atTheWidthOfALaptopEveryRetryButtonIsInViewAndEveryEventIsOneLine() throws Exception {
    for (String status : List.of("failing", "dead", "all")) {
      chrome.get(server.uri("/admin/?status=" + status).toString());
      pauseRefresh();
      long viewport = number("return window.innerWidth");
      assertEquals(1280, viewport, "the window is 1280 px wide");
      assertTrue(number("return document.documentElement.scrollWidth") <= viewport,
          status + ": the page does not scroll sideways");

      List<Box> buttons = boxes("#events button.retry");
      if (!status.equals("all")) {
        assertTrue(buttons.size() >= 3, status + ": retry buttons are there");
      }
      for (Box b : buttons) {
        assertTrue(b.shown());
        assertTrue(b.x() + b.width() <= viewport, status + ": a retry button is cut off at x=" + b.x());
      }
      long oneLine = number("return Math.ceil(parseFloat(getComputedStyle(document.querySelector('#events td')).lineHeight))");
      // every row's height in one script: a WebDriver round trip per row made this test take 25 s
      @SuppressWarnings("unchecked")
      List<List<Object>> rows = (List<List<Object>>) ((JavascriptExecutor) chrome).executeScript(
          "return [...document.querySelectorAll('#events tr[data-event]')]"
              + ".map(r => [r.dataset.event, r.getBoundingClientRect().height])");
      assertTrue(!rows.isEmpty(), status + ": events are listed");
      for (List<Object> row : rows) {
        double height = ((Number) row.get(1)).doubleValue();
        assertTrue(height <= oneLine + 14, status + ": row " + row.get(0) + " is " + height + " px tall, more than one line");
      }
      Files.copy(chrome.getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOTS.resolve("admin-" + status + ".png"),
          StandardCopyOption.REPLACE_EXISTING);
    }
  }

  @Test
  void onAPhoneNothingScrollsSidewaysAndEveryCauseIsReadableInFull() throws Exception {
    phone();
    for (String path : List.of("/admin/?status=failing", "/admin/?status=dead", "/admin/?status=all#refused",
        "/admin/event?provider=stripe&scope=&eventId=evt_1QxFail00", "/admin/confirm-retry?status=failing",
        "/admin/event?provider=stripe&scope=&eventId=evt_missing", "/admin/backfill",
        "/admin/confirm-backfill?handler=com.acme.billing.InvoiceLedger%23paid&type=invoice.*&since=30d&legacy=apply",
        "/admin/reconcile", "/admin/reconcile?provider=fixture&since=2025-03-01&until=2025-03-02")) {
      chrome.get(server.uri(path).toString());
      pauseRefresh();
      long viewport = number("return window.innerWidth");
      assertEquals(PHONE, viewport, "the viewport is a phone's");
      assertTrue(number("return document.documentElement.scrollWidth") <= viewport,
          path + ": the page is " + number("return document.documentElement.scrollWidth") + " px wide, wider than the phone");
      assertTrue(number("return Math.round(parseFloat(getComputedStyle(document.body).fontSize))") >= 14,
          path + ": text is read at its own size, not zoomed out");
      for (Box cause : boxes("#events td.cause, #causes td.cause")) {
        if (cause.empty()) {
          continue;
        }
        assertTrue(cause.shown() && cause.width() > 0, path + ": a cause has no width");
        assertTrue(cause.x() + cause.width() <= viewport, path + ": a cause is cut off");
        assertTrue(cause.fontSize() >= 12, path + ": a cause is too small to read: " + cause.fontSize() + "px");
        assertTrue(cause.overflow() <= 0, path + ": a cause is cut short instead of wrapped");
      }
      Files.copy(chrome.getScreenshotAs(OutputType.FILE).toPath(),
          SCREENSHOTS.resolve("admin-390-" + path.replaceAll("[^a-z]+", "-") + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
    chrome.get(server.uri("/admin/?status=failing").toString());
    WebElement longCause = chrome.findElement(By.cssSelector("#events tr[data-event='evt_1QxFail00'] td.cause"));
    assertEquals(longCause.getAttribute("title"), longCause.getText(), "the whole root cause line shows, wrapped");
    assertTrue(longCause.getRect().getHeight() > 3 * 14, "over several lines: " + longCause.getRect().getHeight());
  }

  @Test
  @Order(Integer.MAX_VALUE) // the one test that changes the shared ledger: last
  void onAPhoneTheFailingEventsOfAFilterAreRetriedAfterConfirmingTheirCount() throws Exception {
    phone();
    chrome.get(server.uri("/admin/?status=failing&provider=stripe&type=invoice.paid").toString());
    pauseRefresh();
    WebElement bulk = chrome.findElement(By.cssSelector("p.bulk a.retry-matching"));
    assertTrue(bulk.isDisplayed() && bulk.getRect().getX() + bulk.getRect().getWidth() <= PHONE, "in view on a phone");
    bulk.click();
    assertTrue(chrome.findElement(By.id("confirm")).getText().startsWith(
        "Retry all 6 failing events of provider stripe, type invoice.paid?"), chrome.findElement(By.id("confirm")).getText());
    chrome.findElement(By.id("confirm-retry")).click();

    new WebDriverWait(chrome, Duration.ofSeconds(15)).until(d -> d.getCurrentUrl().contains("status=failing")
        && !d.findElement(By.id("notice")).getText().isEmpty());
    assertEquals("retried 6 failing events of provider stripe, type invoice.paid: due now",
        chrome.findElement(By.id("notice")).getText());
    assertEquals(0, ledger.admin().retryCount(RetrySelection.failing().provider("stripe")));
    Files.copy(chrome.getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOTS.resolve("admin-390-bulk-retried.png"),
        StandardCopyOption.REPLACE_EXISTING);
  }

  /** A phone's viewport, 390 CSS px wide, as Chromium's device emulation lays it out. */
  private void phone() {
    chrome.executeCdpCommand("Emulation.setDeviceMetricsOverride",
        Map.of("width", PHONE, "height", 844, "deviceScaleFactor", 1, "mobile", true));
  }

  @Test
  void theEventPageFitsAndShowsTheWholeErrorInItsOwnBox() throws Exception {
    chrome.get(server.uri("/admin/event?provider=stripe&scope=&eventId=evt_1QxFail00").toString());

    assertTrue(number("return document.documentElement.scrollWidth") <= 1280, "the event page does not scroll sideways");
    assertTrue(chrome.findElement(By.id("last-error")).getText().contains("at com.acme.inventory.Client.reserve"));
    assertTrue(chrome.findElement(By.cssSelector("button.retry")).isDisplayed());
    Files.copy(chrome.getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOTS.resolve("admin-event.png"),
        StandardCopyOption.REPLACE_EXISTING);
  }

  /** Pauses the page's auto-refresh, where it has one, so that no reload comes in the middle of a test. */
  private void pauseRefresh() {
    for (WebElement pause : chrome.findElements(By.id("pause"))) {
      if (pause.getText().equals("pause auto-refresh")) {
        pause.click();
      }
    }
  }

  /**
   * Where each element matching {@code selector} is laid out, read in one script: a WebDriver round
   * trip per element and property made the phone test take seconds per page. Positions truncated to
   * whole pixels, as WebDriver's {@code getRect} gives them.
   */
  private static List<Box> boxes(String selector) {
    @SuppressWarnings("unchecked")
    List<List<Object>> raw = (List<List<Object>>) ((JavascriptExecutor) chrome).executeScript(
        "return [...document.querySelectorAll(arguments[0])].map(e => {"
            + " const r = e.getBoundingClientRect(), st = getComputedStyle(e);"
            + " return [e.textContent === '', st.display !== 'none' && st.visibility !== 'hidden' && r.width > 0"
            + " && r.height > 0, r.x, r.width, parseFloat(st.fontSize), e.scrollWidth - e.clientWidth]; })", selector);
    return raw.stream().map(r -> new Box((Boolean) r.get(0), (Boolean) r.get(1), ((Number) r.get(2)).longValue(),
        ((Number) r.get(3)).longValue(), ((Number) r.get(4)).doubleValue(), ((Number) r.get(5)).longValue())).toList();
  }

  /** An element's layout: whether it has no text, is shown, its x and width in px, font size, overflow. */
  private record Box(boolean empty, boolean shown, long x, long width, double fontSize, long overflow) {}

  private long number(String script, Object... args) {
    return ((Number) ((JavascriptExecutor) chrome).executeScript(script, args)).longValue();
  }

  private static String executable(String name, String fallback) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File f = new File(dir, name);
      if (f.canExecute()) {
        return f.getPath();
      }
    }
    if (new File(fallback).canExecute()) {
      return fallback;
    }
    throw new IllegalStateException(name + " is not installed: the browser tests (-Pbrowser) need Debian's chromium"
        + " and chromium-driver packages (apt-get install chromium chromium-driver)");
  }

  /** A ledger as an operator meets it: traffic over the last hour, some failing, dead and stuck events. */
  private static void realisticLedger() {
    Instant now = ledger.databaseNow();
    String[] types = {"invoice.paid", "customer.subscription.updated", "charge.refunded", "invoice.payment_failed"};
    for (int i = 0; i < 240; i++) {
      Instant received = now.minus(Duration.ofSeconds(15L * i + 7));
      ledger.row("stripe", String.format("evt_1Qx%06d", i)).type(types[i % types.length]).status("done")
          .receivedAt(received).settledAt(received.plusMillis(40)).insert();
    }
    for (int i = 0; i < 40; i++) {
      Instant received = now.minus(Duration.ofSeconds(80L * i + 20));
      ledger.row("github", String.format("7f3c91a0-%04d-11ef-8e1b-2c4d5e6f7a8b", i)).scope("hook-481516")
          .type(i % 2 == 0 ? "push" : "issues.opened").status(i % 7 == 0 ? "ignored" : "done").receivedAt(received)
          .settledAt(received.plusMillis(60)).insert();
    }
    Instant later = now.plus(Duration.ofMinutes(17));
    for (int i = 0; i < 6; i++) {
      ledger.row("stripe", "evt_1QxFail0" + i).type("invoice.paid").status("pending").attempts(2 + i)
          .receivedAt(now.minus(Duration.ofMinutes(3L + 9 * i))).availableAt(later.plus(Duration.ofMinutes(i)))
          .headers(Map.of("content-type", "application/json", "user-agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)"))
          .lastError("@OnEvent method 'void com.acme.Billing.paid(Invoice, DSLContext)' failed on stripe event evt_1QxFail0"
              + i + " invoice.paid: java.lang.IllegalStateException: cannot reserve stock\n"
              + "java.lang.IllegalStateException: cannot reserve stock\n\tat com.acme.Billing.paid(Billing.java:42)\n"
              + "Caused by: com.acme.inventory.InventoryUnavailableException: " + LONG_CAUSE + "\n"
              + "\tat com.acme.inventory.Client.reserve(Client.java:88)\n\t... 12 more\n").insert();
    }
    for (int i = 0; i < 4; i++) {
      ledger.row("shopify", "b5f0e0c4-" + i + "a2d-4e0b-9d3f-8c1e2f3a4b5c").scope("acme-store.myshopify.com")
          .type("orders/create").status("dead").attempts(12).receivedAt(now.minus(Duration.ofHours(2L + i)))
          .settledAt(now.minus(Duration.ofMinutes(20L + i)))
          .lastError("@OnEvent method 'void com.acme.Orders.created(Order)' failed\n"
              + "com.fasterxml.jackson.databind.exc.MismatchedInputException: Missing required creator property"
              + " 'total_price' (index 3) at [Source: REDACTED; line: 1, column: 812]\n\tat a.B.c(B.java:1)\n").insert();
    }
    ledger.row("stripe", "evt_1QxStuck").type("invoice.paid").status("processing").attempts(1)
        .receivedAt(now.minus(Duration.ofMinutes(9))).lease("node-b-7f3a", now.minus(Duration.ofMinutes(8))).insert();
    // refusals counted by two nodes, as their flushers write them: the page lists them in a table of its own
    ledger.sql.execute("insert into hookledger.refusal_count (node, provider, reason, refused, last_at) values"
        + " ('node-a-1c9e4b2f/10.0.3.17', 'stripe', 'SIGNATURE_MISMATCH', 1207, now() - interval '4 minutes'),"
        + " ('node-b-7f3a/10.0.3.18', '(unknown)', 'UNKNOWN_PROVIDER', 3, now() - interval '2 hours'),"
        + " ('node-b-7f3a/10.0.3.18', 'github', 'TIMESTAMP_OUT_OF_TOLERANCE', 41, now() - interval '9 minutes')");
  }
}
