package dev.hookledger.github;

import java.net.URI;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which webhook a {@link GitHubReplaySource} reads deliveries of, and so its deliveries path
 * (<a href="https://docs.github.com/en/rest/repos/webhooks#list-deliveries-for-a-repository-webhook">GitHub: list deliveries</a>) and the ledger scope of its events ({@code X-GitHub-Hook-ID}). An App's hook id is
 * not part of its API paths: unless given, it is read from a delivery's request headers.
 */
record GitHubReplayHook(String description, String deliveriesPath, Optional<String> hookId) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");

  static GitHubReplayHook repository(String repository, long hookId) {
    String[] parts = repository.split("/", -1);
    if (parts.length != 2 || !NAME.matcher(parts[0]).matches() || !NAME.matcher(parts[1]).matches()) {
      throw new IllegalArgumentException("repository must be owner/name, but was '" + repository + "'");
    }
    return new GitHubReplayHook(
        "hook " + positive(hookId) + " of repository " + repository,
        "/repos/" + repository + "/hooks/" + hookId + "/deliveries",
        Optional.of(Long.toString(hookId)));
  }

  static GitHubReplayHook organization(String organization, long hookId) {
    if (!NAME.matcher(organization).matches()) {
      throw new IllegalArgumentException("organization must be an organization login, but was '" + organization + "'");
    }
    return new GitHubReplayHook(
        "hook " + positive(hookId) + " of organization " + organization,
        "/orgs/" + organization + "/hooks/" + hookId + "/deliveries",
        Optional.of(Long.toString(hookId)));
  }

  static GitHubReplayHook app(Optional<Long> hookId) {
    return new GitHubReplayHook(
        "the GitHub App's hook", "/app/hook/deliveries", hookId.map(id -> Long.toString(positive(id))));
  }

  URI list(URI base) {
    return URI.create(base + deliveriesPath + "?per_page=100");
  }

  URI delivery(URI base, long deliveryId) {
    return URI.create(base + deliveriesPath + "/" + deliveryId);
  }

  URI attempts(URI base, long deliveryId) {
    return URI.create(base + deliveriesPath + "/" + deliveryId + "/attempts");
  }

  private static long positive(long hookId) {
    if (hookId <= 0) {
      throw new IllegalArgumentException("hookId must be positive, but was " + hookId);
    }
    return hookId;
  }
}
