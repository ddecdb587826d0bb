package dev.hookledger.github;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.WebhookException;
import dev.hookledger.spi.json.JsonDocuments;
import dev.hookledger.spi.replay.ApiResponse;
import dev.hookledger.spi.replay.ProviderApiClient;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a hook's deliveries list back to {@code since} and finds the events that never got
 * through, as GitHub's "Handling failed webhook deliveries" script does: the list pages through
 * the {@code Link} header's {@code rel="next"}, newest first, so the first delivery older than
 * {@code since} ends the reading; attempts are grouped by {@code guid}, and a guid none of whose
 * attempts succeeded is missed.
 */
final class GitHubReplayDeliveries {
  private static final Pattern LINK = Pattern.compile("<([^>]*)>\\s*;\\s*rel=\"([^\"]*)\"");

  /**
   * What the window holds.
   *
   * @param missed the newest attempt of each missed event, oldest event first
   * @param events distinct events (guids) delivered or attempted in the window
   * @param pages list pages read
   * @param newest the newest attempt of every event in the window, newest event first
   * @param delivered the guids of which an attempt was answered 2xx
   */
  record Window(List<GitHubReplayAttempt> missed, int events, int pages, List<GitHubReplayAttempt> newest,
      Set<String> delivered) {}

  private GitHubReplayDeliveries() {}

  static Window read(ProviderApiClient api, URI first, Instant since, Optional<String> typeFilter) {
    Predicate<GitHubReplayAttempt> wanted = typeFilter.map(GitHubReplayDeliveries::typeMatcher).orElse(a -> true);
    Map<String, GitHubReplayAttempt> newestByGuid = new LinkedHashMap<>();
    Set<String> delivered = new HashSet<>();
    Optional<URI> next = Optional.of(first);
    int pages = 0;
    while (next.isPresent()) {
      ApiResponse page = api.get(next.get());
      pages++;
      boolean reachedSince = false;
      for (JsonNode item : items(page, next.get())) {
        GitHubReplayAttempt attempt = GitHubReplayAttempt.read(item);
        if (attempt.deliveredAt().isBefore(since)) {
          reachedSince = true;
          break;
        }
        if (wanted.test(attempt)) {
          newestByGuid.putIfAbsent(attempt.guid(), attempt);
          if (attempt.successful()) {
            delivered.add(attempt.guid());
          }
        }
      }
      next = reachedSince ? Optional.empty() : nextLink(page);
    }
    List<GitHubReplayAttempt> missed = new ArrayList<>();
    newestByGuid.values().stream().filter(a -> !delivered.contains(a.guid())).forEach(missed::add);
    Collections.reverse(missed);
    return new Window(List.copyOf(missed), newestByGuid.size(), pages, List.copyOf(newestByGuid.values()),
        Set.copyOf(delivered));
  }

  /**
   * A filter on the type the adapter gives ({@code issues.opened}) or the bare event name
   * ({@code issues}), where {@code *} matches any run of characters ({@code pull_request.*}).
   */
  static Predicate<GitHubReplayAttempt> typeMatcher(String filter) {
    Pattern glob = Pattern.compile(String.join(".*", quoted(filter)));
    return a -> glob.matcher(a.type()).matches() || glob.matcher(a.event()).matches();
  }

  private static List<String> quoted(String filter) {
    List<String> parts = new ArrayList<>();
    for (String part : filter.split("\\*", -1)) {
      parts.add(part.isEmpty() ? "" : Pattern.quote(part));
    }
    return parts;
  }

  private static List<JsonNode> items(ApiResponse page, URI uri) {
    JsonNode list;
    try {
      list = JsonDocuments.parse(page.body());
    } catch (IOException e) {
      list = null;
    }
    if (list == null || !list.isArray()) {
      throw new WebhookException(
          "GitHub API GET " + uri.getRawPath() + " answered with a body that is not a list of deliveries");
    }
    List<JsonNode> items = new ArrayList<>(list.size());
    list.forEach(items::add);
    return items;
  }

  private static Optional<URI> nextLink(ApiResponse page) {
    for (String link : page.headers().allValues("Link")) {
      Matcher m = LINK.matcher(link);
      while (m.find()) {
        if (List.of(m.group(2).trim().split("\\s+")).contains("next")) {
          return Optional.of(URI.create(m.group(1).trim()));
        }
      }
    }
    return Optional.empty();
  }
}
