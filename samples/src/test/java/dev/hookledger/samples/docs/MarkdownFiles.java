package dev.hookledger.samples.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The repository's Markdown files, as the checks of the manual read them. */
final class MarkdownFiles {
  /** The repository's root: the samples module's tests run in {@code samples/}. */
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private MarkdownFiles() {}

  /**
   * Every Markdown file git tracks, as paths relative to {@code root}; where git cannot answer (a
   * source tree without {@code .git}), every {@code *.md} outside build output and hidden folders.
   */
  static List<Path> tracked(Path root) {
    List<Path> fromGit = fromGit(root);
    return fromGit.isEmpty() ? walked(root) : fromGit;
  }

  /** The pages of the manual, {@code docs/*.md}, relative to {@code root}. */
  static List<Path> manual(Path root) {
    try (Stream<Path> files = Files.list(root.resolve("docs"))) {
      return files.filter(p -> p.getFileName().toString().endsWith(".md")).sorted()
          .map(root::relativize).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<String> lines(Path root, Path file) {
    try {
      return Files.readAllLines(root.resolve(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> fromGit(Path root) {
    try {
      Process git = new ProcessBuilder("git", "ls-files", "-z", "--", "*.md").directory(root.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      byte[] out = git.getInputStream().readAllBytes();
      if (!git.waitFor(30, TimeUnit.SECONDS) || git.exitValue() != 0) {
        return List.of();
      }
      List<Path> paths = new ArrayList<>();
      for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
        if (!name.isEmpty() && Files.isRegularFile(root.resolve(name))) {
          paths.add(Path.of(name));
        }
      }
      return paths;
    } catch (IOException e) {
      return List.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    }
  }

  private static List<Path> walked(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".md"))
          .map(root::relativize)
          .filter(p -> {
            for (Path part : p) {
              String name = part.toString();
              if (name.equals("target") || name.equals("node_modules") || name.startsWith(".")) {
                return false;
              }
            }
            return true;
          })
          .sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
