package dev.hookledger.runtime.admin.web;

import dev.hookledger.runtime.admin.AdminText;
import dev.hookledger.runtime.admin.Throughput;
import java.util.List;

/**
 * The overview's chart: events received and settled per minute over the last hour, as inline SVG
 * (no script, no external asset), with the counts of each minute in a tooltip ({@code title}).
 */
final class ActivityChart {
  private static final int WIDTH = 480;
  private static final int HEIGHT = 110;
  private static final int LEFT = 30;
  private static final int BOTTOM = 16;
  private static final String RECEIVED = "#0969da";
  private static final String SETTLED = "#1a7f37";

  private ActivityChart() {}

  static void render(StringBuilder h, Throughput t) {
    List<Throughput.Minute> minutes = t.minutes();
    long peak = Math.max(1, t.peak());
    double step = (double) (WIDTH - LEFT - 4) / Math.max(1, minutes.size() - 1);
    int plot = HEIGHT - BOTTOM - 6;
    long received = minutes.stream().mapToLong(Throughput.Minute::received).sum();
    long settled = minutes.stream().mapToLong(Throughput.Minute::settled).sum();
    h.append("<figure id=\"activity\"><svg role=\"img\" width=\"").append(WIDTH).append("\" height=\"")
        .append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
        .append("\"><title>events per minute, last hour: ").append(received).append(" received, ").append(settled)
        .append(" settled; peak ").append(t.peak()).append(" a minute</title>\n");
    int base = HEIGHT - BOTTOM;
    h.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(base).append("\" x2=\"").append(WIDTH - 4)
        .append("\" y2=\"").append(base).append("\" stroke=\"#d0d7de\"/>")
        .append("<text x=\"").append(LEFT - 4).append("\" y=\"10\" text-anchor=\"end\">").append(peak).append("</text>")
        .append("<text x=\"").append(LEFT - 4).append("\" y=\"").append(base).append("\" text-anchor=\"end\">0</text>")
        .append("<text x=\"").append(LEFT).append("\" y=\"").append(HEIGHT - 3).append("\">60 min ago</text>")
        .append("<text x=\"").append(WIDTH - 4).append("\" y=\"").append(HEIGHT - 3).append("\" text-anchor=\"end\">now</text>\n");
    line(h, minutes, true, step, plot, peak, RECEIVED);
    line(h, minutes, false, step, plot, peak, SETTLED);
    // one invisible column per minute, for its tooltip
    for (int i = 0; i < minutes.size(); i++) {
      Throughput.Minute m = minutes.get(i);
      h.append("<rect x=\"").append(fmt(LEFT + i * step - step / 2)).append("\" y=\"0\" width=\"").append(fmt(step))
          .append("\" height=\"").append(base).append("\" fill=\"transparent\"><title>")
          .append(AdminText.second(m.start()).substring(11, 16)).append(" UTC: ").append(m.received())
          .append(" received, ").append(m.settled()).append(" settled</title></rect>");
    }
    h.append("</svg><figcaption><b class=\"received\">received</b> (")
        .append(received).append(") · <b class=\"settled\">settled</b> (").append(settled)
        .append(") per minute, last hour</figcaption></figure>\n");
  }

  private static void line(StringBuilder h, List<Throughput.Minute> minutes, boolean received, double step, int plot,
      long peak, String color) {
    h.append("<polyline class=\"").append(received ? "received" : "settled").append("\" fill=\"none\" stroke=\"")
        .append(color).append("\" stroke-width=\"1.5\" points=\"");
    for (int i = 0; i < minutes.size(); i++) {
      long v = received ? minutes.get(i).received() : minutes.get(i).settled();
      h.append(fmt(LEFT + i * step)).append(',').append(fmt(HEIGHT - BOTTOM - (double) v * plot / peak)).append(' ');
    }
    h.append("\"/>\n");
  }

  private static String fmt(double d) {
    return String.format(java.util.Locale.ROOT, "%.1f", d);
  }
}
