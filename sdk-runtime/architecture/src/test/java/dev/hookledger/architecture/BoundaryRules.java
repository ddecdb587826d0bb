package dev.hookledger.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rules that keep hookledger's outer wall: what users see names nothing internal, packages do
 * not depend on each other in a circle, adapters stand on the API alone, and the runtime knows no
 * provider. {@link ArchitectureTest} runs them over the published modules;
 * {@link BoundaryRulesDetectFlawsTest} proves each one fails on a deliberately broken fixture.
 */
final class BoundaryRules {
  private BoundaryRules() {}

  /**
   * A type users can reach (public, and nested only in public types) mentions no type of an
   * {@code internal} package in its supertypes or in the types of its public and protected
   * fields, methods and constructors (parameters, returns, type arguments, throws).
   */
  static ArchRule noInternalTypeInPublicSignatures() {
    return classes().that().resideOutsideOfPackage("..internal..")
        .should(new ArchCondition<JavaClass>("mention no internal type in their public signatures") {
          @Override
          public void check(JavaClass type, ConditionEvents events) {
            if (!reachable(type)) {
              return;
            }
            List<String> leaks = new ArrayList<>();
            type.getSuperclass().ifPresent(s -> internalIn(s).forEach(i -> leaks.add("extends " + i)));
            type.getInterfaces().forEach(s -> internalIn(s).forEach(i -> leaks.add("implements " + i)));
            for (JavaField f : type.getFields()) {
              if (visible(f)) {
                internalIn(f.getType()).forEach(i -> leaks.add("field " + f.getName() + ": " + i));
              }
            }
            for (JavaCodeUnit c : type.getCodeUnits()) {
              if (!visible(c) || c.getModifiers().contains(JavaModifier.SYNTHETIC)
                  || c.getModifiers().contains(JavaModifier.BRIDGE)) {
                continue;
              }
              String name = c.getName() + "(...)";
              internalIn(c.getReturnType()).forEach(i -> leaks.add(name + " returns " + i));
              c.getParameterTypes().forEach(p -> internalIn(p).forEach(i -> leaks.add(name + " takes " + i)));
              c.getThrowsClause().getTypes().forEach(t -> internalIn(t).forEach(i -> leaks.add(name + " throws " + i)));
            }
            for (String leak : new TreeSet<>(leaks)) {
              events.add(SimpleConditionEvent.violated(type, type.getName() + " " + leak));
            }
          }
        });
  }

  /**
   * No cycle between packages (each package under {@code dev} is one slice), with each package of
   * {@code facades} split in two: its facade, the classes that are implemented by (depend on) one of
   * its {@code internal} packages ({@code WebhookRuntime}, its builder, the filter), and the rest, the
   * vocabulary the implementation is written in (settings values, listener, statuses). An internal
   * package may use the vocabulary, as any package below it may; its use of the facade counts like
   * every other back-edge, unless let off by name. The classes named in {@code vocabulary} are
   * vocabulary though they use an internal package (their edges to it are then let off by name).
   */
  static SliceRule noPackageCycles(Set<String> vocabulary, String... facades) {
    Set<String> split = Set.of(facades);
    return slices().assignedFrom(new SliceAssignment() {
      @Override
      public SliceIdentifier getIdentifierOf(JavaClass type) {
        String pkg = type.getPackageName();
        if (!pkg.startsWith("dev.")) {
          return SliceIdentifier.ignore();
        }
        String name = pkg.substring("dev.".length());
        return split.contains(pkg) && !vocabulary.contains(outermost(type).getName())
            && (implementedByInternals(type, pkg) || implementedByInternals(outermost(type), pkg))
            ? SliceIdentifier.of(name + " (facade)") : SliceIdentifier.of(name);
      }

      @Override
      public String getDescription() {
        return "packages under dev, " + String.join(" and ", new TreeSet<>(split)) + " each split into its facade and its vocabulary";
      }
    }).should().beFreeOfCycles();
  }

  /** Whether {@code type} depends on a class of {@code pkg}'s internal packages (a class nested in a facade is the facade too). */
  private static boolean implementedByInternals(JavaClass type, String pkg) {
    String internal = pkg + ".internal";
    for (Dependency d : type.getDirectDependenciesFromSelf()) {
      String target = d.getTargetClass().getPackageName();
      if (target.equals(internal) || target.startsWith(internal + ".")) {
        return true;
      }
    }
    return false;
  }

  private static JavaClass outermost(JavaClass type) {
    JavaClass outer = type;
    while (outer.getEnclosingClass().isPresent()) {
      outer = outer.getEnclosingClass().get();
    }
    return outer;
  }

  /** Adapters stand on the API alone: nothing in {@code adapterPackages} uses a runtime type. */
  static ArchRule adaptersDoNotDependOnTheRuntime(String... adapterPackages) {
    return noClasses().that().resideInAnyPackage(adapterPackages)
        .should().dependOnClassesThat().resideInAPackage("dev.hookledger.runtime..");
  }

  /**
   * Adapters stand on the published SPI alone: nothing in {@code adapterPackages} uses a class of
   * one of hookledger's {@code internal} packages, so that what a built-in adapter needs is what any
   * adapter author can use, and the provider modules read only what sdk-api's module exports to all.
   */
  static ArchRule adaptersUseNoInternals(String... adapterPackages) {
    return noClasses().that().resideInAnyPackage(adapterPackages)
        .should().dependOnClassesThat().resideInAPackage("dev.hookledger..internal..");
  }

  /**
   * The core (sdk-api and the runtime, {@code corePackages}) names no provider: no class of theirs
   * refers to a provider package, and none of their class files holds a provider's name in any
   * case (a string literal, a log message, a class or member name).
   */
  static ArchRule coreNamesNoProvider(List<String> providers, String... corePackages) {
    return classes().that().resideInAnyPackage(corePackages)
        .should(new ArchCondition<JavaClass>("name no provider (" + String.join(", ", providers) + ")") {
          @Override
          public void check(JavaClass type, ConditionEvents events) {
            String constants = classFileText(type);
            for (String provider : providers) {
              if (constants.contains(provider)) {
                events.add(SimpleConditionEvent.violated(type, type.getName() + " names provider '" + provider + "'"));
              }
            }
          }
        });
  }

  /**
   * Only the assembly constructs the runtime's collaborators. A class of {@code callers} (package
   * patterns, as ArchUnit writes them) that is not in {@code assembly} constructs no class of
   * {@code collaborators} from another package than its own: it calls none of its constructors,
   * nor a static method of it that returns it (a factory). Values are let off: records, enums,
   * throwables, the classes named in {@code values} (made per call, such as one event's context),
   * and every class of {@code assembly} itself. A collaborator may still build its own helpers in
   * its own package (a worker pool its poller).
   */
  static ArchRule onlyTheAssemblyConstructsCollaborators(String assembly, String[] collaborators, Set<String> values,
      String... callers) {
    return classes().that().resideInAnyPackage(callers).and().resideOutsideOfPackage(assembly)
        .should(new ArchCondition<JavaClass>("construct no collaborator of " + String.join(", ", collaborators)
            + " (only " + assembly + " does)") {
          @Override
          public void check(JavaClass type, ConditionEvents events) {
            Set<String> built = new TreeSet<>();
            type.getConstructorCallsFromSelf().forEach(call -> {
              JavaClass target = call.getTargetOwner();
              if (collaborator(target, type, assembly, collaborators) && !values.contains(target.getName())) {
                built.add("new " + target.getName() + " in " + call.getOrigin().getFullName());
              }
            });
            type.getMethodCallsFromSelf().forEach(call -> {
              JavaClass target = call.getTargetOwner();
              boolean factory = call.getTarget().resolveMember()
                  .map(m -> m.getModifiers().contains(JavaModifier.STATIC) && m.getRawReturnType().equals(target))
                  .orElse(false);
              if (factory && collaborator(target, type, assembly, collaborators) && !values.contains(target.getName())) {
                built.add(target.getName() + "." + call.getName() + "(...) in " + call.getOrigin().getFullName());
              }
            });
            for (String b : built) {
              events.add(SimpleConditionEvent.violated(type, type.getName() + " constructs " + b));
            }
          }
        });
  }

  private static boolean collaborator(JavaClass target, JavaClass caller, String assembly, String[] collaborators) {
    JavaClass outer = target;
    while (outer.getEnclosingClass().isPresent()) {
      outer = outer.getEnclosingClass().get();
    }
    return resideInAnyPackage(collaborators).test(target)
        && !resideInAPackage(assembly).test(target)
        && !target.getPackageName().equals(caller.getPackageName())
        && !target.isRecord() && !target.isEnum() && !target.isAssignableTo(Throwable.class)
        && !outer.equals(caller);
  }

  /**
   * A front end over the public API uses nothing else: no class in {@code webPackages} depends on
   * a class of an {@code internal} package (hookledger's own or any other), not even privately, so
   * that the admin web is proof that {@code InboxAdmin} is enough to build one.
   */
  static ArchRule usesOnlyPublicApi(String... webPackages) {
    return noClasses().that().resideInAnyPackage(webPackages)
        .should().dependOnClassesThat().resideInAPackage("..internal..");
  }

  private static boolean reachable(JavaClass type) {
    for (JavaClass t = type; t != null; t = t.getEnclosingClass().orElse(null)) {
      if (!t.getModifiers().contains(JavaModifier.PUBLIC)) {
        return false;
      }
    }
    return !type.isAnonymousClass() && !type.isLocalClass();
  }

  private static boolean visible(JavaMember member) {
    Set<JavaModifier> m = member.getModifiers();
    return m.contains(JavaModifier.PUBLIC) || m.contains(JavaModifier.PROTECTED);
  }

  private static Set<String> internalIn(JavaType type) {
    Set<String> names = new TreeSet<>();
    for (JavaClass c : type.getAllInvolvedRawTypes()) {
      if (c.getPackageName().contains(".internal")) {
        names.add(c.getName());
      }
    }
    return names;
  }

  /** The class file's bytes as lower-case text: its constant pool holds every name and literal it uses. */
  private static String classFileText(JavaClass type) {
    var source = type.getSource().orElseThrow(() -> new IllegalStateException("no class file for " + type.getName()));
    try (InputStream in = source.getUri().toURL().openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
