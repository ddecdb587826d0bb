package dev.hookledger.samples.demo;

import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.traffic.WebhookClient;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Reads the business state as a user would, from {@code GET /sample/state.json}, and prints it. */
final class StateReport {
  private StateReport() {}

  static SampleState fetch(WebhookClient client) {
    return SampleState.fromJson(client.get("/sample/state.json"));
  }

  static void print(Narrator n, SampleState s) {
    n.blank();
    n.title("Business state (GET /sample/state.json):");
    line(n, "balances", s.balances(), cents -> String.format("$%d.%02d", cents / 100, cents % 100));
    line(n, "subscriptions", s.subscriptions(), sub -> sub.status() + " (" + sub.plan() + ")");
    n.title(String.format("  %-14s %d", "tickets", s.tickets()));
    line(n, "commits", s.commits(), c -> c + (c == 1 ? " commit" : " commits"));
    line(n, "orders", s.orders(), o -> "$" + o.total() + " " + o.status());
  }

  private static <V> void line(Narrator n, String name, Map<String, V> map, Function<V, String> show) {
    String text = map.isEmpty() ? "none" : map.entrySet().stream()
        .map(e -> e.getKey() + " " + show.apply(e.getValue()))
        .collect(Collectors.joining(", "));
    n.title(String.format("  %-14s %s", name, text));
  }
}
