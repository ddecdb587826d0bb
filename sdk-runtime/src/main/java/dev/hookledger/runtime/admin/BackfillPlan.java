package dev.hookledger.runtime.admin;

/**
 * What a backfill would do, counted without running it ({@code backfill --dry-run}).
 *
 * @param selected stored, settled events in its provider, type and window
 * @param alreadyApplied of those, events every named handler has applied
 * @param legacy of those, events settled before handler bookkeeping
 * @param toVisit events it would run its handlers over: selected, less those already applied, less
 *     legacy ones when it skips them; a handler whose own {@code @OnEvent} types do not match an event
 *     does not run on it
 */
public record BackfillPlan(long selected, long alreadyApplied, long legacy, long toVisit) {}
