package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.internal.admin.TimeText;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What every admin page shares: the head with its stylesheet and the script (both under the
 * response's CSP nonce; nothing is loaded from elsewhere), escaping, times, links. The pages are
 * readable without JavaScript; the script only adds the guard header to actions, shows what an
 * action did, and refreshes the page until paused.
 */
final class AdminHtml {
  /** Seconds between automatic refreshes of the overview, until paused. */
  static final int REFRESH_SECONDS = 15;

  private static final String STYLE = String.join("",
      "*{box-sizing:border-box}",
      "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1f2328;margin:0 auto;max-width:1240px;padding:12px 16px}",
      "h1{font-size:20px;margin:0}h2{font-size:16px;margin:18px 0 6px}",
      "a{color:#0550ae}header{display:flex;justify-content:space-between;align-items:baseline;gap:12px;flex-wrap:wrap}",
      ".muted{color:#656d76}.cards{display:flex;gap:8px;flex-wrap:wrap;margin:10px 0}",
      ".card{border:1px solid #d0d7de;border-radius:6px;padding:6px 12px;min-width:118px;text-decoration:none;color:inherit}",
      ".card .n{display:block;font-size:22px;font-weight:600}.card.alarm{border-color:#cf222e;background:#ffebe9}",
      ".card.alarm .n{color:#cf222e}.top{display:flex;gap:24px;align-items:flex-start;flex-wrap:wrap}",
      "table{border-collapse:collapse}th,td{text-align:left;padding:3px 6px;border-bottom:1px solid #eaeef2;vertical-align:top}",
      "td.n,th.n{text-align:right}table.events{width:100%;table-layout:fixed}",
      "table.events td{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}",
      "col.c-received{width:7em}col.c-provider{width:7em}col.c-event{width:10em}col.c-type{width:9em}",
      "col.c-status{width:10.5em}col.c-attempt{width:5em}col.c-next{width:8.5em}col.c-action{width:7.5em}",
      "nav.tabs{display:flex;gap:4px;border-bottom:1px solid #d0d7de;margin-top:14px}",
      "nav.tabs a{padding:5px 12px;text-decoration:none;border:1px solid transparent;border-bottom:0;border-radius:6px 6px 0 0}",
      "nav.tabs a.on{border-color:#d0d7de;background:#fff;font-weight:600;margin-bottom:-1px}",
      "form.filters{display:flex;gap:8px;align-items:center;margin:8px 0;flex-wrap:wrap}",
      "form.inline{display:inline;margin:0}button,.button{font:inherit;padding:2px 10px;border:1px solid #d0d7de;",
      "border-radius:6px;background:#f6f8fa;cursor:pointer;color:inherit;text-decoration:none}",
      "button.danger,.button.danger{border-color:#cf222e;color:#cf222e}",
      "#notice{padding:6px 10px;border-radius:6px;background:#dafbe1;margin:8px 0}#notice.error{background:#ffebe9}",
      "pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:24em;white-space:pre;margin:4px 0}",
      "dl{display:grid;grid-template-columns:11em 1fr;gap:2px 12px;margin:8px 0}dt{color:#656d76}dd{margin:0}",
      ".status-dead,.stuck{color:#cf222e;font-weight:600}.failing{color:#9a6700;font-weight:600}",
      "svg text{font-size:10px;fill:#656d76}figure{margin:0}figcaption{font-size:12px}",
      "b.received{color:#0969da}b.settled{color:#1a7f37}.wide{overflow-x:auto}");

  private AdminHtml() {}

  /** The document's start, through the opening of {@code body}. */
  static void head(StringBuilder h, String title, String nonce) {
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width\"><title>").append(escape(title))
        .append("</title>\n<style nonce=\"").append(nonce).append("\">").append(STYLE).append("</style></head><body>\n");
  }

  /**
   * The script and the document's end. Actions ({@code form[data-action]}) are posted with the guard
   * header; what the server answered is shown on the page that follows. With {@code refresh}, the
   * page reloads every {@value #REFRESH_SECONDS} s unless paused (remembered in the browser).
   */
  static void end(StringBuilder h, String nonce, String guardHeader) {
    h.append("<script nonce=\"").append(nonce).append("\">\n")
        .append("(function () {\n")
        .append("  var notice = sessionStorage.getItem('hookledger.notice');\n")
        .append("  if (notice) {\n    sessionStorage.removeItem('hookledger.notice');\n")
        .append("    var n = JSON.parse(notice), p = document.getElementById('notice');\n")
        .append("    p.textContent = n.text; p.className = n.error ? 'error' : ''; p.hidden = false;\n  }\n")
        .append("  var forms = document.querySelectorAll('form[data-action]');\n")
        .append("  for (var i = 0; i < forms.length; i++) { (function (f) {\n")
        .append("    f.addEventListener('submit', function (e) {\n      e.preventDefault();\n")
        .append("      var body = [];\n")
        .append("      for (var k = 0; k < f.elements.length; k++) {\n")
        .append("        var el = f.elements[k];\n")
        .append("        if (el.name) { body.push(encodeURIComponent(el.name) + '=' + encodeURIComponent(el.value)); }\n")
        .append("      }\n")
        .append("      var x = new XMLHttpRequest();\n")
        .append("      x.open('POST', f.action);\n")
        .append("      x.setRequestHeader('").append(guardHeader).append("', '1');\n")
        .append("      x.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');\n")
        .append("      x.onload = function () {\n")
        .append("        var ok = x.status >= 200 && x.status < 300, j = {};\n")
        .append("        try { j = JSON.parse(x.responseText); } catch (err) { j = {error: 'HTTP ' + x.status}; }\n")
        .append("        sessionStorage.setItem('hookledger.notice', JSON.stringify({text: ok ? j.message : j.error, error: !ok}));\n")
        .append("        var next = f.getAttribute('data-next');\n")
        .append("        if (ok && next) { location.href = next; } else { location.reload(); }\n")
        .append("      };\n")
        .append("      x.send(body.join('&'));\n")
        .append("    });\n  })(forms[i]); }\n")
        .append("  var toggle = document.getElementById('pause');\n")
        .append("  if (toggle) {\n")
        .append("    var paused = localStorage.getItem('hookledger.paused') === '1';\n")
        .append("    var timer = null;\n")
        .append("    var show = function () {\n")
        .append("      toggle.textContent = paused ? 'resume auto-refresh' : 'pause auto-refresh';\n")
        .append("      document.getElementById('refresh-state').textContent = paused ? 'auto-refresh paused'\n")
        .append("          : 'refreshes every ").append(REFRESH_SECONDS).append(" s';\n")
        .append("      if (timer) { clearTimeout(timer); timer = null; }\n")
        .append("      if (!paused) { timer = setTimeout(function () { location.reload(); }, ")
        .append(REFRESH_SECONDS * 1000).append("); }\n    };\n")
        .append("    toggle.hidden = false;\n")
        .append("    toggle.addEventListener('click', function () {\n")
        .append("      paused = !paused; localStorage.setItem('hookledger.paused', paused ? '1' : '0'); show();\n    });\n")
        .append("    show();\n  }\n")
        .append("})();\n</script>\n</body></html>\n");
  }

  /**
   * The page shown instead of an HTML page whose ledger read failed (503): what failed, in one line,
   * and the refresh control, so that a page left open reloads by itself until the ledger answers
   * again, rather than stopping on an error it cannot reload from.
   */
  static String unavailable(String base, String problem, Instant now, String nonce, String guardHeader) {
    StringBuilder h = new StringBuilder(4096);
    head(h, "hookledger inbox: ledger unavailable", nonce);
    header(h, base, now, true);
    h.append("<h2>The ledger cannot be read right now</h2>\n<p id=\"problem\" class=\"status-dead\">")
        .append(escape(problem)).append("</p>\n<p class=\"muted\">Deliveries are answered 503 meanwhile, and the")
        .append(" providers retry them. This page tries again every ").append(REFRESH_SECONDS)
        .append(" s; <a href=\"").append(escape(base)).append("/\">try now</a>.</p>\n");
    end(h, nonce, guardHeader);
    return h.toString();
  }

  /** The header line: title, as-of time, and the refresh control (shown by the script). */
  static void header(StringBuilder h, String base, Instant asOf, boolean refresh) {
    h.append("<header><h1><a href=\"").append(escape(base)).append("/\">hookledger inbox</a></h1><span class=\"muted\">as of ")
        .append(time(asOf, asOf));
    if (refresh) {
      h.append(" · <span id=\"refresh-state\">reload to refresh</span> <button type=\"button\" id=\"pause\" hidden>")
          .append("pause auto-refresh</button>");
    }
    h.append("</span></header>\n<p id=\"notice\" hidden></p>\n");
  }

  /**
   * A time as people read it: relative ({@code 4m 10s ago}) with the absolute time, to the second,
   * in its {@code title} (shown on hover) and {@code datetime}.
   */
  static String time(Instant at, Instant now) {
    String abs = TimeText.second(at);
    return "<time datetime=\"" + abs + "\" title=\"" + abs + "\">" + escape(TimeText.relative(at, now)) + "</time>";
  }

  /** {@code base/path?k=v&...}, skipping null and empty values, escaped for an attribute. */
  static String link(String base, String path, Map<String, String> params) {
    StringJoiner q = new StringJoiner("&", "?", "").setEmptyValue("");
    params.forEach((k, v) -> {
      if (v != null && !v.isEmpty()) {
        q.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
      }
    });
    return escape(base + path + q);
  }

  /** The link to one event's detail page. */
  static String eventLink(String base, EventSummary e) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("provider", e.provider());
    p.put("scope", e.scope());
    p.put("eventId", e.eventId());
    return link(base, "/event", p);
  }

  static String hidden(String name, String value) {
    return "<input type=\"hidden\" name=\"" + name + "\" value=\"" + escape(value) + "\">";
  }

  /** Escapes text for HTML element content and quoted attribute values. */
  static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
