package dev.hookledger.github;

/**
 * What a {@link GitHubReplaySource} does with a delivery that never succeeded.
 *
 * <p>{@link #REDELIVER} is the default and the faithful choice: GitHub sends the delivery again,
 * signed, to the hook's URL, where it passes the same signature check and the same ledger as any
 * other. {@link #INGEST} is for when the endpoint cannot be reached from GitHub (it is still down,
 * or the hook points elsewhere): the event is fetched and recorded directly, trusted because the
 * API call is authenticated, at the cost that its body is the payload as the API re-serialised
 * it, not the bytes GitHub signed.
 */
public enum GitHubReplayMode {
  /** Ask GitHub to redeliver ({@code POST .../deliveries/{id}/attempts}); the event arrives through the endpoint. */
  REDELIVER,

  /**
   * Fetch the delivery ({@code GET .../deliveries/{id}}) and offer its {@code request.payload} to the
   * ledger directly, with the identity the adapter gives a received delivery.
   */
  INGEST
}
