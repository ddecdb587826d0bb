package dev.hookledger.spi.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Texts made by editing seed texts at random: up to three characters replaced, deleted or inserted
 * from an alphabet. For tests that compare a fast reader with the reference it replaces on inputs
 * near the valid ones: the same result, or the same refusal. Deterministic for a given seed.
 */
public final class TextMutations {
  private TextMutations() {}

  /** {@code count} texts, each a seed with 0 to {@code maxEdits} random edits. */
  public static List<String> of(List<String> seeds, String alphabet, int maxEdits, int count, long seed) {
    Random random = new Random(seed);
    List<String> texts = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      StringBuilder s = new StringBuilder(seeds.get(random.nextInt(seeds.size())));
      for (int edits = random.nextInt(maxEdits + 1); edits > 0 && s.length() > 0; edits--) {
        int at = random.nextInt(s.length());
        switch (random.nextInt(3)) {
          case 0 -> s.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
          case 1 -> s.deleteCharAt(at);
          default -> s.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
        }
      }
      texts.add(s.toString());
    }
    return texts;
  }
}
