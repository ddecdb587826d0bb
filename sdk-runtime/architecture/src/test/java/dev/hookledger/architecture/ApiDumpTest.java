package dev.hookledger.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** {@link ApiDump} and {@link ApiBaselineTest#difference} on a fixture whose API is known line by line. */
class ApiDumpTest {
  @Test
  void dumpsPublicAndProtectedMembersOfReachableTypesOnly() {
    String dump = ApiDump.of(new ClassFileImporter().importPackages("dev.hookledger.architecture.fixture.api"));
    assertThat(dump).isEqualTo("""
        public abstract class dev.hookledger.architecture.fixture.api.Shape implements java.lang.Comparable {
          protected <init>(java.lang.String)
          protected final java.lang.String name
          public abstract double area()
          public int compareTo(dev.hookledger.architecture.fixture.api.Shape)
          public static dev.hookledger.architecture.fixture.api.Shape$Circle circle(double)
          public static final int SIDES
        }

        public static final class dev.hookledger.architecture.fixture.api.Shape$Circle extends dev.hookledger.architecture.fixture.api.Shape {
          public double area()
        }

        """);
  }

  @Test
  void aChangedSignatureIsShownAsOneMemberRemovedAndOneAdded() {
    String before = "public final class a.B {\n  public void run(int)\n  public int size()\n}\n\npublic interface a.C {\n}\n\n";
    String after = "public final class a.B {\n  public void run(long)\n  public int size()\n}\n\npublic record a.D {\n}\n\n";
    assertThat(ApiBaselineTest.difference(before, after)).isEqualTo("""
          - public final class a.B :: public void run(int)
          + public final class a.B :: public void run(long)
          - public interface a.C
          + public record a.D
        """);
  }
}
