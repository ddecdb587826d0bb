package dev.hookledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretsTest {

  @Test
  void ofNumbersTheSecretsInTheOrderGiven() {
    Secrets secrets = Secrets.of("whsec_new", "whsec_old");
    assertEquals(List.of("0", "1"), secrets.list().stream().map(Secret::id).toList());
    assertArrayEquals("whsec_old".getBytes(StandardCharsets.UTF_8), secrets.list().get(1).keyBytes());
  }

  @Test
  void toStringShowsIdsNeverValues() {
    Secrets secrets = Secrets.builder().add("2026-11", "whsec_topsecret").build();
    assertEquals("Secrets[2026-11]", secrets.toString());
    assertEquals("Secret[2026-11]", secrets.list().get(0).toString());
    assertFalse(secrets.toString().contains("topsecret"));
  }

  @Test
  void invalidSecretsAreRefusedNamingTheIdNotTheValue() {
    assertEquals("duplicate secret id 'a'",
        assertThrows(IllegalArgumentException.class, () -> Secrets.builder().add("a", "1").add("a", "2")).getMessage());
    assertEquals("secret id must not be blank",
        assertThrows(IllegalArgumentException.class, () -> Secret.of(" ", new byte[] {1})).getMessage());
    assertEquals("secret 'k' is empty", assertThrows(IllegalArgumentException.class, () -> Secret.of("k", new byte[0])).getMessage());
    assertEquals("values", assertThrows(NullPointerException.class, () -> Secrets.of((String[]) null)).getMessage());
  }

  @Test
  void anUnsetOrBlankValueFailsNamingTheSecretNotANullPointer() {
    assertEquals("secret '0' is null: if it is read with System.getenv, the variable is not set"
        + " (Secrets.fromEnvironment(name) says which)",
        assertThrows(IllegalArgumentException.class, () -> Secrets.of((String) null)).getMessage());
    assertEquals("secret 'a' is blank: if it is read with System.getenv, the variable is not set"
        + " (Secrets.fromEnvironment(name) says which)",
        assertThrows(IllegalArgumentException.class, () -> Secrets.builder().add("a", " \n")).getMessage());
  }

  @Test
  void fromEnvironmentNamesAnUnsetOrBlankVariableAndSplitsARotation() {
    Map<String, String> env = Map.of("ROTATING", " whsec_new , whsec_old ", "BLANK", " ");
    Secrets rotating = Secrets.fromEnvironment("ROTATING", env::get);
    assertEquals(List.of("0", "1"), rotating.list().stream().map(Secret::id).toList());
    assertArrayEquals("whsec_old".getBytes(StandardCharsets.UTF_8), rotating.list().get(1).keyBytes());

    assertEquals("environment variable STRIPE_WEBHOOK_SECRET is not set: set it to the provider's webhook signing"
        + " secret (several, comma-separated, during a rotation)",
        assertThrows(IllegalArgumentException.class, () -> Secrets.fromEnvironment("STRIPE_WEBHOOK_SECRET", env::get))
            .getMessage());
    assertEquals("environment variable BLANK is blank: set it to the provider's webhook signing secret (several,"
        + " comma-separated, during a rotation)",
        assertThrows(IllegalArgumentException.class, () -> Secrets.fromEnvironment("BLANK", env::get)).getMessage());
  }

  @Test
  void keyBytesAreCopiedInAndOut() {
    byte[] key = {1, 2, 3};
    Secret secret = Secret.of("k", key);
    key[0] = 9;
    secret.keyBytes()[1] = 9;
    assertArrayEquals(new byte[] {1, 2, 3}, secret.keyBytes());
    assertEquals("HmacSHA256", secret.hmacSha256Key().getAlgorithm());
  }

  @Test
  void noneIsEmpty() {
    assertTrue(Secrets.none().isEmpty());
    assertEquals("Secrets[]", Secrets.none().toString());
    assertTrue(SecretResolver.of(Secrets.none()).resolve("stripe", "acct_1").isEmpty());
  }

  @Test
  void anUnresolvedPlaceholderIsRefusedInEveryFactoryNamingTheSecretOrVariableNotTheValue() {
    IllegalArgumentException of = assertThrows(IllegalArgumentException.class,
        () -> Secrets.of("${STRIPE_WEBHOOK_SECRET}"));
    assertEquals("secret '0' is an unresolved placeholder (${...}): the variable or property it names is not set",
        of.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Secrets.builder().add("2026-11", "whsec_${SUFFIX}"));
    Map<String, String> env = Map.of("TEMPLATED", "${STRIPE_WEBHOOK_SECRET:}");
    assertEquals("environment variable TEMPLATED holds an unresolved placeholder (${...}): set it to the provider's"
        + " webhook signing secret itself",
        assertThrows(IllegalArgumentException.class, () -> Secrets.fromEnvironment("TEMPLATED", env::get)).getMessage());
  }
}
