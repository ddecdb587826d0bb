package dev.hookledger.samples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.github.GitHubTestSigner;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.RawPost;
import dev.hookledger.samples.Main;
import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.testing.ChildJvm;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.WebhookClient;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user tried, and what ran {@code serve} out of memory before: 24 concurrent, slowly sent
 * 20 MiB posts to {@code /webhooks/github}, none of them signed, against {@code serve} in a JVM with
 * a 512 MiB heap ({@link ChildJvm}'s {@code -Xmx512m}). Half carry no signature at all, and are
 * refused from their headers; half carry a well-formed forged one, so their bodies must be read
 * (20 MiB each, 240 MiB together, against a body budget of a quarter of the heap) before the HMAC
 * can fail. Bodies reserve the bytes that arrived, so the forged ones read side by side until the
 * budget is spent: each ends in a 401 (read whole, forged), a 503 (the budget spent, the same answer
 * as any overload) or a 408 (not sent within the body read deadline on a loaded machine). No
 * {@code OutOfMemoryError} is thrown, and a signed delivery right after is processed.
 */
class ServeBurstTest {
  private static final String GITHUB_SECRET = "gh_burst_test_secret";
  private static final int SENDERS = 24;
  private static final int BODY_BYTES = 20 * 1024 * 1024;
  private static final byte[] PART = filled(64 * 1024);

  @TempDir Path dir;

  @Test
  void unsignedBurstOf20MiBPostsEndsIn401sAnd503sWithoutOutOfMemoryAndTheNextDeliveryIsProcessed() throws Exception {
    try (ChildJvm serve = ChildJvm.start(Main.class,
        List.of("serve", "--port", "0", "--data-dir", dir.resolve("db").toString()),
        Map.of(SampleSecrets.GITHUB_ENV, GITHUB_SECRET), dir)) {
      URI base = URI.create(serve.awaitLine("listening on "));

      Map<String, Integer> answers = burst(base);

      System.out.println("burst answers: " + answers);
      String report = answers + "\nstderr: " + serve.stderrText();
      assertFalse(serve.stderrText().contains("OutOfMemoryError"), report);
      assertFalse(serve.output().contains("OutOfMemoryError"), report);
      assertEquals(SENDERS / 2, answers.getOrDefault("unsigned 401", 0), report);
      assertEquals(SENDERS / 2, answers.getOrDefault("forged 401", 0) + answers.getOrDefault("forged 503", 0)
          + answers.getOrDefault("forged 408", 0), report);
      // 240 MiB of forged bodies against a 128 MiB budget: not all of them can be held
      assertTrue(answers.getOrDefault("forged 401", 0) < SENDERS / 2, "the budget refused some: " + report);

      WebhookClient client = new WebhookClient(base);
      String delivery = UUID.randomUUID().toString();
      String body = SampleEvents.issueOpened("octo/burst", 41, 1, "after the burst", Instant.now());
      assertEquals("200 accepted",
          client.send(GitHubTestSigner.withSecret(GITHUB_SECRET).withoutSha1().deliveryId(delivery)
              .delivery("issues", body)).toString());
      Await.until("the issue after the burst is processed",
          () -> SampleState.fromJson(client.get("/sample/state.json")).tickets() == 1);
    }
  }

  /** Sends the burst: every sender starts at once and sends 64 KiB at a time until it is answered. */
  private static Map<String, Integer> burst(URI base) throws Exception {
    ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<String>> futures = new ArrayList<>();
      for (int i = 0; i < SENDERS; i++) {
        boolean forged = i % 2 == 1;
        futures.add(senders.submit(() -> {
          go.await();
          return (forged ? "forged " : "unsigned ") + post(base, forged).status();
        }));
      }
      go.countDown();
      Map<String, Integer> answers = new TreeMap<>();
      for (Future<String> f : futures) {
        answers.merge(f.get(), 1, Integer::sum);
      }
      return answers;
    } finally {
      senders.shutdownNow();
    }
  }

  private static RawPost.Answer post(URI base, boolean forged) throws InterruptedException {
    Map<String, String> headers = new TreeMap<>(Map.of(
        "Content-Type", "application/json",
        "X-GitHub-Event", "issues",
        "X-GitHub-Delivery", UUID.randomUUID().toString()));
    if (forged) {
      headers.put("X-Hub-Signature-256", "sha256=" + "0".repeat(64));
    }
    try (RawPost post = RawPost.open(base, "/webhooks/github", headers, BODY_BYTES)) {
      for (long sent = 0; sent < BODY_BYTES && !post.answered(); sent += PART.length) {
        if (!post.send(PART)) {
          break; // answered and closed: the rest is not wanted
        }
        Thread.sleep(2);
      }
      return post.awaitAnswer(Duration.ofSeconds(60));
    }
  }

  private static byte[] filled(int n) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) ' ');
    return b;
  }
}
