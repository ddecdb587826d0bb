package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.BackfillRequest;
import dev.hookledger.runtime.admin.BackfillStatus;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.htmlunit.BrowserVersion;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlAnchor;
import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlElement;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.html.HtmlSelect;
import org.htmlunit.html.HtmlTextInput;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admin page as a person uses it, in a browser (HtmlUnit, with its JavaScript and the page's
 * Content-Security-Policy): retry buttons, "retry all dead" with its confirmation, filters, pages,
 * the event page and the pausable refresh, a backfill started, followed and cancelled, a reconcile,
 * against the real servlet on Jetty and PostgreSQL.
 */
class AdminPageInBrowserTest {
  private static final String TOKEN = "admin-token-0123456789abcdef";

  private final LedgerFixture ledger = new LedgerFixture();
  private TestServer server;
  private WebClient browser;

  @BeforeEach
  void start() {
    server = TestServer.start(context -> context.addServlet(
        new ServletHolder(new AdminServlet(ledger.admin(), AdminAuthorizer.bearerToken(TOKEN),
            AdminServletTest.FIXTURE_SOURCES)), "/admin/*"));
    browser = new WebClient(BrowserVersion.CHROME);
    browser.addRequestHeader("Authorization", "Bearer " + TOKEN);
    browser.getOptions().setThrowExceptionOnFailingStatusCode(false);
    browser.getOptions().setCssEnabled(true);
  }

  @AfterEach
  void stop() throws Exception {
    browser.close();
    server.close();
  }

  @Test
  void clickingRetrySetsADeadEventPendingAndSaysSo() throws Exception {
    ledger.row("stripe", "evt_dead").status("dead").attempts(12).lastError("boom").insert();
    ledger.row("stripe", "evt_dead2").status("dead").attempts(12).lastError("boom").insert();
    HtmlPage page = open("/admin/?status=dead");

    HtmlButton retry = (HtmlButton) find(row(page, "evt_dead"), "button.retry");
    assertEquals("retry", retry.getTextContent());
    page = after(retry.click());

    assertEquals("pending", ledger.statusOf("stripe", "", "evt_dead"));
    assertEquals("dead", ledger.statusOf("stripe", "", "evt_dead2"));
    assertEquals("retried stripe event evt_dead: pending, due now", notice(page));
    assertNull(row(page, "evt_dead"), "gone from the dead list");
    assertNotNull(row(page, "evt_dead2"));
  }

  @Test
  void retryNowOnAFailingEventMakesItDue() throws Exception {
    Instant later = ledger.databaseNow().plus(Duration.ofHours(1));
    ledger.row("stripe", "evt_failing").status("pending").attempts(2).availableAt(later)
        .lastError("failed\njava.lang.IllegalStateException: inventory down\n\tat a.B.c(B.java:1)\n").insert();
    HtmlPage page = open("/admin/");

    DomElement row = row(page, "evt_failing");
    assertTrue(row.asNormalizedText().contains("IllegalStateException: inventory down"), row.asNormalizedText());
    assertTrue(row.asNormalizedText().contains("2 of 12"), row.asNormalizedText());
    page = after(((HtmlButton) find(row, "button.retry")).click());

    assertEquals("retried stripe event evt_failing: pending, due now", notice(page));
    assertTrue(!ledger.admin().showExisting("stripe", "", "evt_failing").summary().availableAt().isAfter(ledger.databaseNow()));
  }

  @Test
  void retryAllDeadAsksToConfirmTheCountAndRetriesEveryDeadEventNotOnlyThoseShown() throws Exception {
    for (int i = 0; i < 60; i++) {
      ledger.row("stripe", String.format("evt_%02d", i)).status("dead").attempts(12).lastError("boom")
          .receivedAt(NOW.minusSeconds(i)).insert();
    }
    HtmlPage page = open("/admin/?status=dead");
    assertEquals(AdminServlet.PAGE_SIZE, rows(page).size(), "a page shows 50 of the 60");

    HtmlPage confirm = ((HtmlAnchor) page.getElementById("retry-all-dead")).click();
    assertTrue(confirm.getElementById("confirm").asNormalizedText().startsWith("Retry all 60 dead events?"),
        confirm.asNormalizedText());
    ledger.row("stripe", "evt_late").status("dead").attempts(12).insert();
    HtmlPage refused = after(((HtmlButton) confirm.getElementById("confirm-retry-dead")).click());
    assertEquals("there are 61 dead events now, not the 60 confirmed: nothing was retried; look again and confirm 61",
        notice(refused));
    assertEquals(61, ledger.admin().backlog().dead());

    HtmlPage done = after(((HtmlButton) refused.getElementById("confirm-retry-dead")).click());
    assertEquals("retried 61 dead events: pending, due now", notice(done));
    assertEquals(0, ledger.admin().backlog().dead());
    assertTrue(done.getUrl().toString().endsWith("/admin/?status=dead"), done.getUrl().toString());
    assertNotNull(done.getElementById("no-events"));
  }

  @Test
  void retryingEveryFailingEventOfAFilteredListConfirmsItsCountAndMakesOnlyThoseDue() throws Exception {
    Instant later = ledger.databaseNow().plus(Duration.ofHours(1));
    String gone = "java.lang.IllegalStateException: inventory down\n\tat a.B.c(B.java:1)\n";
    for (int i = 0; i < 3; i++) {
      ledger.row("stripe", "evt_f" + i).type("invoice.paid").attempts(2).availableAt(later).lastError(gone).insert();
    }
    ledger.row("github", "g_f").type("invoice.paid").attempts(2).availableAt(later).lastError(gone).insert();
    HtmlPage page = open("/admin/?status=failing&provider=stripe&type=invoice.*");

    HtmlAnchor bulk = (HtmlAnchor) find(page, "p.bulk a.retry-matching");
    assertEquals("retry all failing events of provider stripe, type invoice.*…", bulk.getTextContent());
    HtmlPage confirm = bulk.click();
    assertTrue(confirm.getElementById("confirm").asNormalizedText().startsWith(
        "Retry all 3 failing events of provider stripe, type invoice.*?"), confirm.asNormalizedText());
    ledger.row("stripe", "evt_f_late").type("invoice.paid").attempts(1).availableAt(later).lastError(gone).insert();

    HtmlPage refused = after(((HtmlButton) confirm.getElementById("confirm-retry")).click());
    assertEquals("there are 4 failing events of provider stripe, type invoice.* now, not the 3 confirmed:"
        + " nothing was retried; look again and confirm 4", notice(refused));
    HtmlPage again = open("/admin/confirm-retry?status=failing&provider=stripe&type=invoice.*");
    HtmlPage done = after(((HtmlButton) again.getElementById("confirm-retry")).click());

    assertEquals("retried 4 failing events of provider stripe, type invoice.*: due now", notice(done));
    assertTrue(done.getUrl().toString().endsWith("/admin/?status=failing&provider=stripe&type=invoice.*"),
        done.getUrl().toString());
    assertEquals(0, ledger.admin().retryCount(
        dev.hookledger.runtime.admin.RetrySelection.failing().provider("stripe")));
    assertEquals(later, ledger.admin().show("github", "", "g_f").orElseThrow().summary().availableAt());
  }

  @Test
  void aCauseInTheCausesTableRetriesItsDeadEventsAfterConfirmingTheirCount() throws Exception {
    String gone = "java.lang.IllegalStateException: relation sample.balance does not exist\n\tat a.B.c(B.java:1)\n";
    ledger.row("stripe", "evt_d1").status("dead").attempts(12).lastError(gone).insert();
    ledger.row("github", "g_d2").status("dead").attempts(12).lastError(gone).insert();
    ledger.row("stripe", "evt_d3").status("dead").attempts(12).lastError("java.io.IOException: timeout\n\tat a.B.c(B.java:1)\n")
        .insert();
    HtmlPage page = open("/admin/?status=dead");

    HtmlAnchor link = (HtmlAnchor) page.getByXPath("//table[@id='causes']//tr[td[@class='cause' and"
        + " text()='IllegalStateException: relation sample.balance does not exist']]//a").get(0);
    assertEquals("retry dead…", link.getTextContent());
    HtmlPage confirm = link.click();
    assertTrue(confirm.getElementById("confirm").asNormalizedText().startsWith("Retry all 2 dead events of cause"),
        confirm.asNormalizedText());
    HtmlPage done = after(((HtmlButton) confirm.getElementById("confirm-retry")).click());

    assertTrue(notice(done).startsWith("retried 2 dead events of cause"), notice(done));
    assertEquals("pending", ledger.statusOf("stripe", "", "evt_d1"));
    assertEquals("pending", ledger.statusOf("github", "", "g_d2"));
    assertEquals("dead", ledger.statusOf("stripe", "", "evt_d3"));
  }

  @Test
  void filtersByProviderTypeAndStatusAndPagesByKeyset() throws Exception {
    for (int i = 0; i < 55; i++) {
      ledger.row("stripe", String.format("evt_inv_%02d", i)).type("invoice.paid").status("done").settledAt(NOW)
          .receivedAt(NOW.minusSeconds(i)).insert();
    }
    ledger.row("stripe", "evt_charge").type("charge.refunded").status("done").settledAt(NOW).insert();
    ledger.row("github", "g_1").scope("hook-7").type("invoice.paid").status("done").settledAt(NOW).insert();
    HtmlPage page = open("/admin/?status=all");

    HtmlForm filters = (HtmlForm) page.getElementById("filters");
    ((HtmlSelect) filters.getSelectByName("provider")).setSelectedAttribute("stripe", true);
    ((HtmlSelect) filters.getSelectByName("status")).setSelectedAttribute("done", true);
    ((HtmlTextInput) filters.getInputByName("type")).setValue("invoice.*");
    page = ((HtmlButton) find(filters, "button[type=submit]")).click();

    List<String> first = ids(page);
    assertEquals(50, first.size());
    assertTrue(first.stream().allMatch(id -> id.startsWith("evt_inv_")), first.toString());
    assertEquals("evt_inv_00", first.get(0));
    assertEquals("invoice.*", ((HtmlTextInput) find(page.getElementById("filters"), "input[name=type]")).getValue(),
        "the form keeps the filters");

    page = ((HtmlAnchor) page.getElementById("next-page")).click();
    assertEquals(List.of("evt_inv_50", "evt_inv_51", "evt_inv_52", "evt_inv_53", "evt_inv_54"), ids(page),
        "the next page keeps every filter");
    assertNull(page.getElementById("next-page"));
    page = ((HtmlAnchor) page.getElementById("first-page")).click();
    assertEquals(first, ids(page));
  }

  @Test
  void theEventPageOpensFromTheListAndTheRefreshCanBePaused() throws Exception {
    ledger.row("stripe", "evt_x").status("dead").attempts(3).body("{\"id\":\"evt_x\",\"amount\":7}")
        .lastError("failed\njava.lang.IllegalStateException: card declined\n\tat a.B.c(B.java:1)\n").insert();
    HtmlPage page = open("/admin/?status=dead");
    assertEquals("resume auto-refresh", page.getElementById("pause").getTextContent(), "paused by open()");
    assertEquals("auto-refresh paused", page.getElementById("refresh-state").getTextContent());
    page = after(((HtmlButton) page.getElementById("pause")).click());
    assertEquals("pause auto-refresh", page.getElementById("pause").getTextContent());
    assertEquals("refreshes every 15 s", page.getElementById("refresh-state").getTextContent());
    page = after(((HtmlButton) page.getElementById("pause")).click());

    HtmlPage detail = ((HtmlAnchor) find(row(page, "evt_x"), "a")).click();
    assertEquals("{\"id\":\"evt_x\",\"amount\":7}", detail.getElementById("body").getTextContent());
    assertTrue(detail.getElementById("last-error").getTextContent().contains("\tat a.B.c(B.java:1)"));
    assertTrue(detail.getElementById("fields").asNormalizedText().contains("IllegalStateException: card declined"));
  }

  @Test
  void withoutJavaScriptThePagesStillReadTabsFiltersAndPages() throws Exception {
    for (int i = 0; i < 52; i++) {
      ledger.row("github", String.format("g_%02d", i)).scope("hook-7").status("dead").attempts(12)
          .lastError("failed\njava.lang.IllegalStateException: repo gone\n\tat a.B.c(B.java:1)\n")
          .receivedAt(NOW.minusSeconds(i)).insert();
    }
    ledger.row("stripe", "evt_done").status("done").settledAt(NOW).insert();
    browser.getOptions().setJavaScriptEnabled(false);
    HtmlPage page = browser.getPage(server.uri("/admin/").toString());

    assertTrue(page.getElementById("tab-dead").getAttribute("class").contains("on"), "opens on what needs a person");
    assertEquals(50, rows(page).size());
    assertTrue(rows(page).get(0).asNormalizedText().contains("IllegalStateException: repo gone"));
    page = ((HtmlAnchor) page.getElementById("next-page")).click();
    assertEquals(List.of("g_50", "g_51"), ids(page));
    page = ((HtmlAnchor) page.getElementById("tab-all")).click();
    assertTrue(ids(page).contains("evt_done"), ids(page).toString());
    page = ((HtmlAnchor) find(row(page, "g_00"), "a")).click();
    assertTrue(page.getElementById("last-error").getTextContent().contains("repo gone"));
  }

  /**
   * A person starts a backfill of a handler added after the events were stored: chooses it among the
   * runtime's handlers, sees the dry run's count, confirms, and sees it done on the overview; the
   * runtime behind the page applies the handler to each event once.
   */
  @Test
  void aBackfillStartedFromThePageAppliesTheChosenHandlerToEachStoredEventOnce() throws Exception {
    for (int i = 0; i < 5; i++) {
      ledger.row("testhook", "job-" + i).type("job.count").status("done").settledAt(NOW).insert();
    }
    ledger.row("testhook", "other").type("other.thing").status("done").settledAt(NOW).insert();
    ledger.sql.execute("create table page_audit (event_id text not null)");
    try (WebhookRuntime runtime = WebhookRuntime.builder().jdbcUrl(ledger.database.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of("page-secret-0123456789")).handlers(new PageAudit())
        .inbox(i -> i.pollInterval(Duration.ofMillis(100))).build()) {
      runtime.start();
      serve(new AdminServlet(runtime, AdminAuthorizer.bearerToken(TOKEN)));
      HtmlPage form = ((HtmlAnchor) open("/admin/").getElementById("start-backfill")).click();

      HtmlForm f = (HtmlForm) form.getElementById("backfill-form");
      List<String> offered = f.getInputsByName("handler").stream().map(i -> i.getValueAttribute()).toList();
      assertEquals(List.of(PageAudit.NAME), offered, "the runtime's registered handlers");
      f.getInputByName("handler").setChecked(true);
      ((HtmlTextInput) f.getInputByName("type")).setValue("job.*");
      ((HtmlSelect) f.getSelectByName("legacy")).setSelectedAttribute("apply", true);
      HtmlPage confirm = ((HtmlButton) form.getElementById("count-backfill")).click();
      assertTrue(confirm.getElementById("confirm").asNormalizedText().startsWith("Start a backfill of " + PageAudit.NAME
          + " over 5 events?"), confirm.getElementById("confirm").asNormalizedText());
      assertEquals(0, ledger.admin().backfills().size(), "nothing starts before the confirmation");

      HtmlPage started = after(((HtmlButton) confirm.getElementById("confirm-backfill")).click());
      long id = ledger.admin().backfills().get(0).id();
      assertEquals("backfill " + id + " started: " + PageAudit.NAME + " over 5 events; progress below", notice(started));
      Await.until("backfill " + id + " done", Duration.ofSeconds(30),
          () -> ledger.admin().backfill(id).orElseThrow().status() == BackfillStatus.DONE);
      DomElement row = open("/admin/").getElementById("backfill-" + id);
      assertTrue(row.asNormalizedText().contains("done\t100% 100% 5/5\t5\t0\t0"), "done, 5 applied: "
          + row.asNormalizedText());
    }
    assertEquals(5L, ledger.sql.fetchValue("select count(*) from page_audit", Long.class), "once per event");
    assertEquals(5L, ledger.sql.fetchValue("select count(distinct event_id) from page_audit where event_id like 'job-%'",
        Long.class), "every job event, nothing else");
  }

  @Test
  void aRunningBackfillIsCancelledWithItsButtonAndSaysSo() throws Exception {
    long id = ledger.admin().startBackfill(BackfillRequest.builder("audit.nobody").build()).id();
    HtmlPage page = open("/admin/");
    DomElement row = page.getElementById("backfill-" + id);
    assertTrue(row.asNormalizedText().contains("waiting for a node"), row.asNormalizedText());

    page = after(((HtmlButton) find(row, "button.cancel-backfill")).click());
    assertEquals("backfill " + id + " cancelled: what it applied stays applied", notice(page));
    assertEquals(BackfillStatus.CANCELLED, ledger.admin().backfill(id).orElseThrow().status());
    assertNull(find(page.getElementById("backfill-" + id), "button.cancel-backfill"), "no cancel once cancelled");
  }

  @Test
  void reconcileFromItsFormShowsExactlyTheDifferences() throws Exception {
    ledger.row("fixture", "evt_b").type("fixture.created").status("done").settledAt(NOW).insert();
    ledger.row("fixture", "evt_c").type("fixture.created").status("done").settledAt(NOW).insert();
    HtmlPage form = ((HtmlAnchor) open("/admin/").getElementById("reconcile")).click();
    HtmlForm f = (HtmlForm) form.getElementById("reconcile-form");
    ((HtmlSelect) f.getSelectByName("provider")).setSelectedAttribute("fixture", true);
    ((HtmlTextInput) f.getInputByName("since")).setValue("2025-03-01");
    ((HtmlTextInput) f.getInputByName("until")).setValue("2025-03-02T00:00");
    HtmlPage report = ((HtmlButton) form.getElementById("run-reconcile")).click();

    assertEquals(200, report.getWebResponse().getStatusCode(), report.asNormalizedText());
    assertEquals(List.of("evt_a"), firstColumn(report, "missing"));
    assertEquals(List.of("evt_c"), firstColumn(report, "unlisted"));
    assertEquals(List.of("evt_b"), firstColumn(report, "differing"));
    assertEquals(2, ledger.count(), "reconcile wrote nothing");
    assertEquals("done", ledger.statusOf("fixture", "", "evt_b"));
  }

  private static List<String> firstColumn(HtmlPage page, String table) {
    return page.querySelectorAll("#" + table + " tr td:first-child").stream().map(DomNode::getTextContent).toList();
  }

  /** Serves {@code servlet} at {@code /admin/*} instead of the page over the fixture's admin. */
  @Test
  void searchingAnIdFromTheDeadTabFindsTheEventWhateverItsStatus() throws Exception {
    ledger.row("stripe", "evt_dead").status("dead").attempts(12).lastError("boom").insert();
    ledger.row("stripe", "evt_found").type("invoice.paid").status("done").settledAt(NOW).insert();
    HtmlPage page = open("/admin/?status=dead");

    HtmlForm filters = (HtmlForm) page.getElementById("filters");
    ((HtmlTextInput) filters.getInputByName("id")).setValue("evt_found");
    page = ((HtmlButton) find(filters, "button[type=submit]")).click();

    assertEquals(List.of("evt_found"), ids(page), page.asXml());
    assertNull(page.getElementById("no-events"));
  }

  private void serve(AdminServlet servlet) throws Exception {
    server.close();
    server = TestServer.start(context -> context.addServlet(new ServletHolder(servlet), "/admin/*"));
  }

  /** A handler added after the events were stored. */
  public static final class PageAudit {
    static final String NAME = "audit.page";

    @OnEvent(value = "job.*", name = NAME)
    void audit(EventContext context, DSLContext tx) {
      tx.execute("insert into page_audit (event_id) values (?)", context.event().eventId());
    }
  }

  /** Opens a page with the auto-refresh paused, so that no reload comes in the middle of a test. */
  private HtmlPage open(String path) throws Exception {
    HtmlPage page = browser.getPage(server.uri(path).toString());
    HtmlElement pause = (HtmlElement) page.getElementById("pause");
    if (pause != null && pause.getTextContent().equals("pause auto-refresh")) {
      page = after(pause.click());
    }
    return page;
  }

  /**
   * The page the window shows once the script's request and the reload it starts are done: the jobs
   * due within a second, not the auto-refresh's 15 s timer, which a running refresh always has
   * pending (waiting for all jobs waited out the whole bound, 5 s, on every such page).
   */
  private HtmlPage after(Object clicked) {
    browser.waitForBackgroundJavaScriptStartingBefore(1_000);
    return (HtmlPage) browser.getCurrentWindow().getEnclosedPage();
  }

  private static <N extends DomNode> N find(DomNode in, String selector) {
    return in.querySelector(selector, in);
  }

  private static String notice(HtmlPage page) {
    DomElement n = page.getElementById("notice");
    return n == null ? null : n.getTextContent();
  }

  private static DomElement row(HtmlPage page, String eventId) {
    return rows(page).stream().filter(r -> eventId.equals(r.getAttribute("data-event"))).findFirst().orElse(null);
  }

  private static List<DomElement> rows(HtmlPage page) {
    return page.querySelectorAll("#events tr[data-event]").stream().map(n -> (DomElement) n).toList();
  }

  private static List<String> ids(HtmlPage page) {
    return rows(page).stream().map(r -> r.getAttribute("data-event")).toList();
  }
}
