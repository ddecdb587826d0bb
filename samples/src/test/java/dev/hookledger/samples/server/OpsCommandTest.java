package dev.hookledger.samples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.samples.Main;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The operations commands of the samples jar: hookledger's command line, pointed by default at
 * the embedded database of a running {@code serve}.
 */
class OpsCommandTest {
  @TempDir Path dir;

  @Test
  void statusWithoutADatabaseUrlReadsTheLedgerOfTheRunningServe() throws Exception {
    Path data = dir.resolve("samples-db");
    ServeCommand serve = new ServeCommand(new PrintStream(new ByteArrayOutputStream()), Map.of(
        SampleSecrets.STRIPE_ENV, "whsec_ops_0123456789abcdef0123456789abcdef", SampleSecrets.GITHUB_ENV,
        "gh_ops_0123456789abcdef", SampleSecrets.SHOPIFY_ENV, "shpss_0123456789abcdef0123456789abcdef"));
    new CommandLine(serve).parseArgs("--port", "0", "--data-dir", data.toString());
    try (SampleApp app = serve.start()) {
      SampleSigners sign = new SampleSigners(SampleSecrets.fromEnvironment(Map.of(
          SampleSecrets.STRIPE_ENV, "whsec_ops_0123456789abcdef0123456789abcdef", SampleSecrets.GITHUB_ENV,
        "gh_ops_0123456789abcdef", SampleSecrets.SHOPIFY_ENV, "shpss_0123456789abcdef0123456789abcdef")));
      String body = SampleEvents.invoicePaid("evt_ops_1", "in_ops_1", "cus_ops", 100, "usd", Instant.now());
      assertEquals("200 accepted", new WebhookClient(app.uri()).send(sign.stripe(body, Instant.now())).toString());

      Run run = run("list", "--data-dir", data.toString());
      assertEquals(0, run.code, run.err);
      assertTrue(run.out.contains("evt_ops_1"), run.out);

      // global options before the command, as the README writes them
      Run json = run("--json", "--data-dir", data.toString(), "status");
      assertEquals(0, json.code, json.err);
      assertTrue(json.out.contains("\"failing\" : 0"), json.out);
    }
  }

  @Test
  void serveTakesARetryPolicyToRehearseDeadLetters() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ServeCommand serve = new ServeCommand(new PrintStream(printed, true, StandardCharsets.UTF_8), Map.of(
        SampleSecrets.STRIPE_ENV, "whsec_ops_0123456789abcdef0123456789abcdef", SampleSecrets.GITHUB_ENV,
        "gh_ops_0123456789abcdef", SampleSecrets.SHOPIFY_ENV, "shpss_0123456789abcdef0123456789abcdef"));
    new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.resolve("retry-db").toString(),
        "--retry-first-delay", "100ms", "--retry-max-attempts", "3");
    assertEquals(java.time.Duration.ofMillis(100), serve.retryPolicy().firstDelay());
    assertEquals(3, serve.retryPolicy().maxAttempts());
    try (SampleApp app = serve.start()) {
      assertTrue(printed.toString(StandardCharsets.UTF_8).contains(
          "retries:  3 attempts, the first retry after 100ms, doubling up to 1h\n"), printed.toString(StandardCharsets.UTF_8));
      assertEquals(3, app.admin().maxAttempts(), "the admin page counts attempts of the policy served");
    }

    ServeCommand bad = new ServeCommand(new PrintStream(new ByteArrayOutputStream()), Map.of());
    new CommandLine(bad).parseArgs("--retry-first-delay", "soon");
    CommandLine.ParameterException e = org.junit.jupiter.api.Assertions.assertThrows(
        CommandLine.ParameterException.class, bad::retryPolicy);
    assertEquals("--retry-first-delay: must be a duration such as 500ms, 30s, 5m, 2h, 30d or PT30S, but was 'soon'",
        e.getMessage());
  }

  @Test
  void serveRefusesAShortAdminTokenInOneLineBeforeStartingAnything() {
    Run run = serve(Map.of(SampleSecrets.ADMIN_TOKEN_ENV, "tok"), "short-token-db");
    assertEquals(2, run.code);
    assertTrue(run.err.startsWith("HOOKLEDGER_ADMIN_TOKEN: admin token must be at least 16 characters, but was 3;"
        + " unset it to have one generated\n"), run.err);
    assertTrue(!run.err.contains("\tat "), "no stack trace: " + run.err);
    assertTrue(!java.nio.file.Files.exists(dir.resolve("short-token-db")), "no database was created");
  }

  @Test
  void serveRefusesAPlaceholderOrShortProviderSecretInOneLineBeforeStartingAnything() {
    Run placeholder = serve(Map.of(SampleSecrets.STRIPE_ENV, "${STRIPE_WEBHOOK_SECRET}"), "placeholder-db");
    assertEquals(2, placeholder.code);
    assertTrue(placeholder.err.startsWith("STRIPE_WEBHOOK_SECRET is an unresolved placeholder (${...}): the variable or"
        + " property it names is not set; set it to the provider's secret, or unset it to have one generated for this"
        + " run\n"), placeholder.err);
    assertTrue(!java.nio.file.Files.exists(dir.resolve("placeholder-db")), "no database was created");

    Run tooShort = serve(Map.of(SampleSecrets.SHOPIFY_ENV, "shp"), "short-db");
    assertEquals(2, tooShort.code);
    assertTrue(tooShort.err.startsWith("SHOPIFY_WEBHOOK_SECRET is shorter than 32 characters"), tooShort.err);
  }

  /** {@code serve} on a free port with only {@code env}, as far as it gets. */
  private Run serve(Map<String, String> env, String dataDir) {
    java.io.StringWriter err = new java.io.StringWriter();
    CommandLine cli = new CommandLine(new ServeCommand(new PrintStream(new ByteArrayOutputStream()), env));
    cli.setErr(new java.io.PrintWriter(err));
    int code = cli.execute("--port", "0", "--data-dir", dir.resolve(dataDir).toString());
    return new Run(code, "", err.toString());
  }

  @Test
  void withoutAnyDatabaseItSaysHowToNameOne() {
    Run run = run("status", "--data-dir", dir.resolve("none").toString());
    assertEquals(2, run.code);
    assertEquals("hookledger-samples: no database: pass --database-url, set HOOKLEDGER_DATABASE_URL, or run"
        + " 'serve' first (its embedded database lives in " + dir.resolve("none").toAbsolutePath() + ")\n", run.err);
  }

  @Test
  void helpIsHookledgersOwn() {
    Run run = run("prune", "--help");
    assertEquals(0, run.code, run.err);
    assertTrue(run.out.contains("--older-than"), run.out);
  }

  @Test
  void everyOperatorCommandOfTheTourIsCarriedWithHookledgersOwnHelp() {
    Map<String, String> optionOfEach = Map.of("status", "--json", "list", "--status", "show", "--scope", "retry",
        "--confirm", "prune", "--older-than", "migrate", "--dry-run", "replay", "--since", "reconcile", "--since",
        "backfill", "--handler");
    optionOfEach.forEach((command, option) -> {
      Run run = run(command, "--help");
      assertEquals(0, run.code, command + ": " + run.err);
      assertTrue(run.out.startsWith("Usage: hookledger " + command), command + ": " + run.out);
      assertTrue(run.out.contains(option), command + ": " + run.out);
    });
  }

  @Test
  void anUnknownCommandIsRefusedEvenWithHelp() {
    for (String[] args : new String[][] {{"nosuch", "--help"}, {"--data-dir", "/tmp/x", "nosuch"}}) {
      Run run = run(args);
      assertEquals(2, run.code, run.out);
      assertTrue(run.err.startsWith("hookledger-samples: unknown command 'nosuch': the commands are demo, serve, bench,"),
          run.err);
      assertTrue(run.err.contains("reconcile") && run.err.contains("backfill"), run.err);
      assertEquals("", run.out);
    }
  }

  @Test
  void serveReadsNewCommaOldAsTwoSecretsAsTheRuntimeDoes() throws Exception {
    String newSecret = "gh_new_0123456789abcdef";
    String oldSecret = "gh_old_0123456789abcdef";
    ServeCommand serve = new ServeCommand(new PrintStream(new ByteArrayOutputStream()), Map.of(
        SampleSecrets.GITHUB_ENV, newSecret + "," + oldSecret));
    new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.resolve("rotation-db").toString());
    try (SampleApp app = serve.start()) {
      WebhookClient client = new WebhookClient(app.uri());
      String body = SampleEvents.push("acme/app", "a".repeat(40), 1);
      for (String secret : java.util.List.of(newSecret, oldSecret)) {
        SampleSigners sign = new SampleSigners(SampleSecrets.fromEnvironment(Map.of(SampleSecrets.GITHUB_ENV, secret)));
        assertEquals("200 accepted", client.send(sign.github("push", "guid-" + secret, body)).toString(),
            "signed with " + secret.substring(0, 6));
      }
      SampleSigners both = new SampleSigners(SampleSecrets.fromEnvironment(Map.of(SampleSecrets.GITHUB_ENV,
          newSecret + "," + oldSecret)));
      assertEquals("200 accepted", client.send(both.github("push", "guid-both", body)).toString(),
          "the samples' own sender signs with the new one");
    }
  }

  private record Run(int code, String out, String err) {}

  /** Runs the samples' command line with standard output and error captured. */
  private static synchronized Run run(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
      int code = Main.run(args);
      return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }
}
