package dev.hookledger.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The public API of some classes as text, one line per type and member, as OkHttp's and Kotlin's
 * binary-compatibility dumps keep it: what a user's compiled code can link against. A type counts
 * if it is public, outside every {@code internal} package, and nested only in public types; a
 * member if it is public or protected and written by hand (not synthetic, not a bridge). Types are
 * erased, as the class files link them, so the dump changes exactly when a user's compiled code
 * could stop linking or a new name appears. Types and members are sorted, so the text is stable.
 */
final class ApiDump {
  private ApiDump() {}

  /** The dump of every reachable type among {@code types}, types separated by a blank line. */
  static String of(Iterable<JavaClass> types) {
    List<JavaClass> reachable = new ArrayList<>();
    for (JavaClass type : types) {
      if (reachable(type)) {
        reachable.add(type);
      }
    }
    reachable.sort(Comparator.comparing(JavaClass::getName));
    StringBuilder out = new StringBuilder();
    for (JavaClass type : reachable) {
      out.append(header(type)).append(" {\n");
      for (String member : members(type)) {
        out.append("  ").append(member).append('\n');
      }
      out.append("}\n\n");
    }
    return out.toString();
  }

  static boolean reachable(JavaClass type) {
    if (type.getPackageName().contains(".internal") || type.isAnonymousClass() || type.isLocalClass()) {
      return false;
    }
    for (JavaClass t = type; t != null; t = t.getEnclosingClass().orElse(null)) {
      if (!t.getModifiers().contains(JavaModifier.PUBLIC)) {
        return false;
      }
    }
    return true;
  }

  private static String header(JavaClass type) {
    Set<JavaModifier> m = type.getModifiers();
    StringBuilder h = new StringBuilder("public ");
    if (m.contains(JavaModifier.STATIC) && type.getEnclosingClass().isPresent()) {
      h.append("static ");
    }
    String kind;
    if (type.isAnnotation()) {
      kind = "@interface";
    } else if (type.isInterface()) {
      kind = "interface";
    } else if (type.isEnum()) {
      kind = "enum";
    } else if (type.isRecord()) {
      kind = "record";
    } else {
      kind = "class";
      if (m.contains(JavaModifier.ABSTRACT)) {
        h.append("abstract ");
      }
      if (m.contains(JavaModifier.FINAL)) {
        h.append("final ");
      }
    }
    h.append(kind).append(' ').append(type.getName());
    type.getRawSuperclass()
        .filter(s -> !type.isEnum() && !type.isRecord() && !s.getName().equals("java.lang.Object"))
        .ifPresent(s -> h.append(" extends ").append(s.getName()));
    String interfaces = type.getRawInterfaces().stream()
        .map(JavaClass::getName)
        .filter(n -> !(type.isAnnotation() && n.equals("java.lang.annotation.Annotation")))
        .sorted()
        .collect(Collectors.joining(", "));
    if (!interfaces.isEmpty()) {
      h.append(type.isInterface() ? " extends " : " implements ").append(interfaces);
    }
    return h.toString();
  }

  private static Set<String> members(JavaClass type) {
    Set<String> lines = new TreeSet<>();
    for (JavaField f : type.getFields()) {
      if (visible(f)) {
        lines.add(modifiers(f, type) + name(f.getRawType()) + " " + f.getName());
      }
    }
    for (JavaCodeUnit c : type.getCodeUnits()) {
      if (!visible(c) || c.getName().equals("<clinit>")) {
        continue;
      }
      String params = c.getRawParameterTypes().stream().map(ApiDump::name).collect(Collectors.joining(", "));
      if (c.isConstructor()) {
        lines.add(modifiers(c, type) + "<init>(" + params + ")");
      } else {
        lines.add(modifiers(c, type) + name(c.getRawReturnType()) + " " + c.getName() + "(" + params + ")");
      }
    }
    return lines;
  }

  /** A type as Java spells it: {@code byte[]}, not the class file's {@code [B}. */
  private static String name(JavaClass type) {
    return type.isArray() ? name(type.getComponentType()) + "[]" : type.getName();
  }

  private static boolean visible(JavaMember member) {
    Set<JavaModifier> m = member.getModifiers();
    return (m.contains(JavaModifier.PUBLIC) || m.contains(JavaModifier.PROTECTED))
        && !m.contains(JavaModifier.SYNTHETIC) && !m.contains(JavaModifier.BRIDGE);
  }

  private static String modifiers(JavaMember member, JavaClass owner) {
    Set<JavaModifier> m = member.getModifiers();
    StringBuilder s = new StringBuilder(m.contains(JavaModifier.PUBLIC) ? "public " : "protected ");
    if (m.contains(JavaModifier.STATIC)) {
      s.append("static ");
    }
    // an interface's methods are abstract unless default or static: said once by the type's kind
    if (m.contains(JavaModifier.ABSTRACT) && !owner.isInterface()) {
      s.append("abstract ");
    }
    // a method of a final class is final anyway; a field's final is part of what users link against
    if (m.contains(JavaModifier.FINAL) && (member instanceof JavaField || !owner.getModifiers().contains(JavaModifier.FINAL))) {
      s.append("final ");
    }
    return s.toString();
  }
}
