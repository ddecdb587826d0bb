package dev.hookledger.samples.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Words that belong to how the project was built, not to what its users read: issue numbers, work
 * sessions, people and the machine the work ran on. A user's manual says what a user does and why;
 * a measurement is a record (command, machine, date, commit), never a diary.
 */
final class DocWords {
  /** One rule: what it finds, and why it has no place in a user's document. */
  record Rule(Pattern pattern, String why) {
    static Rule of(String regex, String why) {
      return new Rule(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), why);
    }
  }

  static final List<Rule> RULES = List.of(
      Rule.of("\\bissues?\\s+#?\\d+", "an issue number"),
      Rule.of("\\bthe issue's\\b", "a reference to an issue"),
      Rule.of("\\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|this|that|last|next"
          + "|previous|earlier|later|same)\\s+session(?:'s)?\\b", "a work session"),
      Rule.of("\\bthe lead\\b(?!\\s+time)", "a person of the project"),
      Rule.of("\\b(?:other\\s+)?engineers?\\b", "a person of the project"),
      Rule.of("\\bneighbou?rs'?\\b", "a person of the project"),
      Rule.of("\\bcolleagues?\\b", "a person of the project"),
      Rule.of("\\bthis machine\\b", "a build machine (say which machine, in a record)"),
      Rule.of("\\bbuild machine\\b", "a build machine (say which machine, in a record)"),
      Rule.of("\\bmeasured here\\b", "a diary (a measurement is a record: command, machine, date, commit)"),
      Rule.of("\\bsitting\\b", "a diary (a measurement is a record: command, machine, date, commit)"),
      Rule.of("\\bs\\d+-[a-z]+\\b", "a work branch"));

  private DocWords() {}

  /** Each use of a rule's words in {@code lines} of {@code file}: {@code file:line: "words" (why)}. */
  static List<String> findings(String file, List<String> lines) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      for (Rule rule : RULES) {
        Matcher m = rule.pattern().matcher(lines.get(i));
        while (m.find()) {
          out.add(file + ":" + (i + 1) + ": \"" + m.group() + "\" (" + rule.why() + ")");
        }
      }
    }
    return out;
  }
}
