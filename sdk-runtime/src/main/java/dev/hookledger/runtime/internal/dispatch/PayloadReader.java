package dev.hookledger.runtime.internal.dispatch;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.hookledger.internal.Json;
import dev.hookledger.internal.PayloadTree;
import java.io.IOException;
import java.util.Optional;

/**
 * Supplies one payload parameter: finds the part of the payload its pointer names, checks the
 * required properties of its type, and maps it with a reader prepared once at registration.
 * Immutable and thread-safe.
 */
final class PayloadReader implements ParameterBinder {
  private final JsonPointer pointer;
  private final String path;
  private final ObjectReader reader;
  private final RequiredProperties required;
  private final PayloadAbsence absence;
  private final String typeName;
  private final String hint;

  /**
   * @param pointer where the parameter's value is; {@code null} for the whole payload
   * @param required the properties to check first; {@code null} when mapping is not strict
   * @param hint appended to an absent-property message: how to fix it
   */
  PayloadReader(JsonPointer pointer, ObjectReader reader, RequiredProperties required, PayloadAbsence absence,
      String typeName, String hint) {
    this.pointer = pointer;
    this.path = pointer == null ? "" : pointer.toString();
    this.reader = reader;
    this.required = required;
    this.absence = absence;
    this.typeName = typeName;
    this.hint = hint;
  }

  @Override
  public Object bind(Invocation invocation) {
    // the shared tree, not a copy of it: a pointer, the check and the mapping only read it
    JsonNode payload = PayloadTree.of(invocation.event());
    JsonNode node = pointer == null ? payload : payload.at(pointer);
    if (node.isMissingNode()) {
      return absence.absent();
    }
    if (node.isNull()) {
      return absence.presentNull();
    }
    if (required != null) {
      Optional<RequiredProperties.Problem> problem = required.problem(node, path);
      if (problem.isPresent()) {
        // "may be absent" advice only for what is really absent: for a misnamed property it is the silent zero
        throw new BindingFailure(problem.get().message() + (problem.get().absent() ? hint : ""));
      }
    }
    try {
      return absence.wrap(reader.readValue(node));
    } catch (IOException e) {
      // Json.describe never quotes the payload; the exception is not kept as a cause for that reason
      throw new BindingFailure("the payload" + (path.isEmpty() ? "" : " at " + path) + " cannot be read as "
          + typeName + ": " + Json.describe(e));
    }
  }
}
