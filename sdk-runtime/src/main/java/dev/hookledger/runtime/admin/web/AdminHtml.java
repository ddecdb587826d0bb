package dev.hookledger.runtime.admin.web;

import dev.hookledger.runtime.admin.AdminText;
import dev.hookledger.runtime.admin.EventSummary;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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

  /** The stylesheet and the script, read once from beside this class; the column widths derive from the columns. */
  private static final String STYLE = resource("admin.css") + EventColumns.widths();
  private static final String SCRIPT = resource("admin.js");

  private AdminHtml() {}

  private static String resource(String name) {
    try (InputStream in = AdminHtml.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("the admin page's " + name + " is missing from the classpath, beside "
            + AdminHtml.class.getName());
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("the admin page's " + name + " cannot be read", e);
    }
  }

  /** The document's start, through the opening of {@code body}. */
  static void head(StringBuilder h, String title, String nonce) {
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>").append(escape(title))
        .append("</title>\n<style nonce=\"").append(nonce).append("\">").append(STYLE).append("</style></head><body data-guard-header=\"")
        .append(AdminServlet.GUARD_HEADER).append("\" data-refresh-seconds=\"").append(REFRESH_SECONDS).append("\">\n");
  }

  /**
   * The script and the document's end. Actions ({@code form[data-action]}) are posted with the guard
   * header; what the server answered is shown on the page that follows. With {@code refresh}, the
   * page reloads every {@value #REFRESH_SECONDS} s unless paused (remembered in the browser).
   */
  static void end(StringBuilder h, String nonce) {
    h.append("<script nonce=\"").append(nonce).append("\">\n").append(SCRIPT).append("</script>\n</body></html>\n");
  }

  /**
   * The page shown instead of an HTML page whose ledger read failed (503): what failed, in one line,
   * and the refresh control, so that a page left open reloads by itself until the ledger answers
   * again, rather than stopping on an error it cannot reload from.
   */
  static String unavailable(String base, String problem, Instant now, String nonce) {
    return problem(base, "The ledger cannot be read right now", problem, "Deliveries are answered 503 meanwhile,"
        + " and the providers retry them. This page tries again every " + REFRESH_SECONDS + " s;", true, now, nonce);
  }

  /**
   * An error as a page, for a person in a browser: a heading, the reason in one line (escaped), what
   * to do, and the way back; never a stack trace. With {@code refresh}, it reloads itself.
   */
  static String problem(String base, String heading, String problem, String hint, boolean refresh, Instant now,
      String nonce) {
    StringBuilder h = new StringBuilder(4096);
    head(h, "hookledger inbox: " + heading, nonce);
    header(h, base, now, refresh);
    h.append("<h2>").append(escape(heading)).append("</h2>\n<p id=\"problem\" class=\"status-dead\">")
        .append(escape(problem)).append("</p>\n<p class=\"muted\">").append(escape(hint))
        .append(" <a href=\"").append(escape(base)).append("/\">").append(refresh ? "try now" : "back to the inbox")
        .append("</a>.</p>\n");
    end(h, nonce);
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
    String abs = AdminText.second(at);
    return "<time datetime=\"" + abs + "\" title=\"" + abs + "\">" + escape(AdminText.relative(at, now)) + "</time>";
  }

  /** {@code base/path?k=v&...}, skipping null and empty values, escaped for an attribute. */
  static String link(String base, String path, Map<String, String> params) {
    return escape(url(base, path, params));
  }

  /** {@code base/path?k=v&...}, skipping null and empty values, each value URL-encoded; not escaped for HTML. */
  static String url(String base, String path, Map<String, String> params) {
    StringJoiner q = new StringJoiner("&", "?", "").setEmptyValue("");
    params.forEach((k, v) -> {
      if (v != null && !v.isEmpty()) {
        q.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
      }
    });
    return base + path + q;
  }

  /** The link to one event's detail page. */
  static String eventLink(String base, EventSummary e) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("provider", e.provider());
    p.put("scope", e.scope());
    p.put("eventId", e.eventId());
    return link(base, "/event", p);
  }

  /**
   * A hidden field: its value exactly as given (an event id with a control character is still that
   * id, posted back as it is), its unsafe characters as numeric references, which the page's source
   * shows and a browser never renders. C1 controls stay as they are: a reference to one means a
   * Windows-1252 character to an HTML parser.
   */
  static String hidden(String name, String value) {
    StringBuilder v = new StringBuilder(value.length() + 16);
    for (char c : markup(value).toCharArray()) {
      if (AdminText.obeyed(c) && !(c >= 0x80 && c <= 0x9f)) {
        v.append("&#x").append(Integer.toHexString(c)).append(';');
      } else {
        v.append(c);
      }
    }
    return "<input type=\"hidden\" name=\"" + name + "\" value=\"" + v + "\">";
  }

  /**
   * Escapes text shown on the page, in element content or a quoted attribute: markup characters as
   * entities, and every character {@link AdminText#visible} shows escaped, but line feed and tab (which a
   * {@code pre} keeps), as {@code \}{@code uXXXX}, so that a bidirectional override or a control in a
   * sender's text is seen, never obeyed.
   */
  static String escape(String s) {
    return markup(AdminText.visible(s));
  }

  private static String markup(String s) {
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
