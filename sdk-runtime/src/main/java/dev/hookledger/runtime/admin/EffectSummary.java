package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.EffectStatus;
import java.time.Instant;

/**
 * One effect of the outbox as the operator lists it: whose (the event and handler that enqueued
 * it), where it goes, and where it stands. Times are the database's. Immutable.
 *
 * @param scope the event's scope (empty where the provider has none); with {@code idempotencyKey}, the effect's key
 * @param idempotencyKey the key sent with every attempt (a UUID as text)
 * @param provider the event's provider
 * @param eventId the event's id
 * @param handler the {@code @OnEvent} method that enqueued it
 * @param name its name within the handler, or the ordinal of its send ({@code 1})
 * @param kind {@code http} (sent by the built-in sender) or {@code typed} (given to an {@code EffectHandler})
 * @param destination the named destination, or an absolute URL's origin
 * @param target {@code POST /v1/receipts} for an HTTP effect; the payload's class for a typed one
 * @param orderingKey the key it is ordered by; null if none
 * @param status where it stands
 * @param attempts attempts made so far
 * @param availableAt when it may be sent next
 * @param lastStatusCode the last attempt's HTTP status; null without an answer
 * @param lastError the last attempt's error, one line; null if none
 * @param cause the root cause of {@code lastError}, as a bulk retry's cause matches it; null if none
 * @param createdAt when its handler's transaction enqueued it
 * @param settledAt when it became done or dead; null while waiting
 */
public record EffectSummary(String scope, String idempotencyKey, String provider, String eventId, String handler,
    String name, String kind, String destination, String target, String orderingKey, EffectStatus status,
    int attempts, Instant availableAt, Integer lastStatusCode, String lastError, String cause, Instant createdAt,
    Instant settledAt) {}
