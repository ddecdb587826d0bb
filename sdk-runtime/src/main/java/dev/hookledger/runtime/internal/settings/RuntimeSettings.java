package dev.hookledger.runtime.internal.settings;

import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.internal.Deadlines;
import dev.hookledger.runtime.internal.dispatch.TypePattern;
import dev.hookledger.runtime.internal.inbox.InboxSettings;
import dev.hookledger.runtime.internal.outbox.OutboxSettings;
import java.time.Clock;
import java.util.List;

/**
 * Everything a {@code WebhookRuntimeBuilder} was told, as one immutable value of small groups: the
 * builder fills it (its defaults the only defaults), every front door fills the builder from the
 * {@link SettingsCatalogue}, and the internal assembly turns it into collaborators.
 *
 * @param inbox the workers, their leases and polls, and the {@link RetryPolicy}
 * @param outbox the outbox's senders, destinations and effect handlers
 */
public record RuntimeSettings(String schema, ProcessingMode mode, List<TypePattern> inline, Clock clock,
    Deadlines deadlines, InboxSettings inbox, ReceiveSettings receive, OutboxSettings outbox) {
  public RuntimeSettings {
    inline = List.copyOf(inline);
  }

  /** When failed events are tried again; the inbox group's. */
  public RetryPolicy retryPolicy() {
    return inbox.retryPolicy();
  }
}
