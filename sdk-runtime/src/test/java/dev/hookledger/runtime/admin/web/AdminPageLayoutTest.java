package dev.hookledger.runtime.admin.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.LedgerFixture;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The admin page in a real Chromium at 1280 px, as an operator sees it: nothing scrolls sideways,
 * every retry button is in view, and each event is one line however long its cause. Screenshots
 * are saved under {@code target/screenshots/} for review. Needs Debian's {@code chromium} and
 * {@code chromium-driver} ({@code -Pbrowser}; {@code .ci/run} installs them).
 */
@Tag("browser")
class AdminPageLayoutTest {
  private static final String TOKEN = "admin-token-0123456789abcdef";
  private static final Path SCREENSHOTS = Path.of("target", "screenshots");
  private static final String LONG_CAUSE = "the inventory service at inventory.internal:8080 answered 503 Service"
      + " Unavailable for reservation of order 820982911946154508 after 3 retries within the client's 2 s budget;"
      + " the circuit breaker is now open for 30 s and every reservation fails fast until it closes again";

  private final LedgerFixture ledger = new LedgerFixture();
  private TestServer server;
  private ChromeDriver chrome;

  @BeforeEach
  void start() throws Exception {
    realisticLedger();
    // the system clock, as in production: ages and next attempts relative to the database's now
    InboxAdmin admin = InboxAdmin.builder(ledger.database.dataSource()).build();
    server = TestServer.start(context -> context.addServlet(
        new ServletHolder(new AdminServlet(admin, AdminAuthorizer.bearerToken(TOKEN))), "/admin/*"));
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
  }

  @AfterEach
  void stop() throws Exception {
    if (chrome != null) {
      chrome.quit();
    }
    server.close();
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

      List<WebElement> buttons = chrome.findElements(By.cssSelector("#events button.retry"));
      if (!status.equals("all")) {
        assertTrue(buttons.size() >= 3, status + ": retry buttons are there");
      }
      for (WebElement b : buttons) {
        assertTrue(b.isDisplayed());
        assertTrue(b.getRect().getX() + b.getRect().getWidth() <= viewport,
            status + ": a retry button is cut off at x=" + b.getRect().getX());
      }
      long oneLine = number("return Math.ceil(parseFloat(getComputedStyle(document.querySelector('#events td')).lineHeight))");
      for (WebElement row : chrome.findElements(By.cssSelector("#events tr[data-event]"))) {
        assertTrue(row.getRect().getHeight() <= oneLine + 14, status + ": row " + row.getAttribute("data-event")
            + " is " + row.getRect().getHeight() + " px tall, more than one line");
      }
      Files.copy(chrome.getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOTS.resolve("admin-" + status + ".png"),
          StandardCopyOption.REPLACE_EXISTING);
    }
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

  private void pauseRefresh() {
    WebElement pause = chrome.findElement(By.id("pause"));
    if (pause.getText().equals("pause auto-refresh")) {
      pause.click();
    }
  }

  private long number(String script) {
    return ((Number) ((JavascriptExecutor) chrome).executeScript(script)).longValue();
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
  private void realisticLedger() {
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
  }
}
