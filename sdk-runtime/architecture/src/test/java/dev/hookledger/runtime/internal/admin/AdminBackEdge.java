package dev.hookledger.runtime.internal.admin;

import dev.hookledger.runtime.admin.InboxAdmin;

/**
 * The back-edge this release removed, put back on purpose: an internal admin class that knows the
 * public admin package, as the readers did when they built its values. Test sources only.
 */
public class AdminBackEdge {
  /** Uses the public admin from the internal package. */
  public String schemaOf(InboxAdmin admin) {
    return admin.schema();
  }
}
