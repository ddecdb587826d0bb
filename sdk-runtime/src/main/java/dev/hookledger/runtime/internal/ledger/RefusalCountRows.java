package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.sum;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertValuesStep5;
import org.jooq.Record;
import org.jooq.Record4;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The {@code refusal_count} table of {@code V6__refusal_counts.sql}: each node's cumulative count of
 * refused deliveries per provider and reason, written by that node's flusher and summed over nodes by
 * the admin. Rows are nodes x providers x reasons, so every read and write here is of a tiny table.
 */
public final class RefusalCountRows {
  private static final Field<String> NODE = field(name("node"), SQLDataType.VARCHAR);
  private static final Field<String> PROVIDER = field(name("provider"), SQLDataType.VARCHAR);
  private static final Field<String> REASON = field(name("reason"), SQLDataType.VARCHAR);
  private static final Field<Long> REFUSED = field(name("refused"), SQLDataType.BIGINT);
  private static final Field<OffsetDateTime> LAST_AT = field(name("last_at"), SQLDataType.TIMESTAMPWITHTIMEZONE);

  private final String schema;
  private final Table<Record> table;

  public RefusalCountRows(String schema) {
    this.schema = schema;
    this.table = DSL.table(name(schema, "refusal_count"));
  }

  /** The ledger's schema name, for messages. */
  public String schema() {
    return schema;
  }

  /** One node's count of one provider and reason. */
  public record Row(String provider, String reason, long refused, Instant lastAt) {}

  /** One provider and reason's count summed over the nodes that refused one since a time. */
  public record Sum(String provider, String reason, long refused, Instant lastAt) {}

  /**
   * Sets {@code node}'s counts to {@code rows} in one statement. Rows sorted by key, as every
   * multi-row write of the ledger: two such statements over the same keys then lock in one order.
   */
  public void upsert(DSLContext tx, String node, List<Row> rows) {
    if (rows.isEmpty()) {
      return;
    }
    List<Row> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparing(Row::provider).thenComparing(Row::reason));
    InsertValuesStep5<Record, String, String, String, Long, OffsetDateTime> insert =
        tx.insertInto(table, NODE, PROVIDER, REASON, REFUSED, LAST_AT);
    for (Row r : sorted) {
      insert = insert.values(node, r.provider(), r.reason(), r.refused(), r.lastAt().atOffset(ZoneOffset.UTC));
    }
    insert.onConflict(NODE, PROVIDER, REASON).doUpdate()
        .set(REFUSED, DSL.excluded(REFUSED))
        .set(LAST_AT, DSL.excluded(LAST_AT))
        .execute();
  }

  /** Deletes the rows of every node whose newest refusal is before {@code cutoff}; returns how many. */
  public int deleteNodesNotSeenSince(DSLContext tx, Instant cutoff) {
    var stale = DSL.select(NODE).from(table).groupBy(NODE)
        .having(max(LAST_AT).lt(cutoff.atOffset(ZoneOffset.UTC)));
    return tx.deleteFrom(table).where(NODE.in(stale)).execute();
  }

  /** Counts per provider and reason refused since {@code since}, summed over nodes, most first. */
  public List<Sum> since(DSLContext db, Instant since) {
    Field<BigDecimal> total = sum(REFUSED);
    Field<OffsetDateTime> last = max(LAST_AT);
    List<Sum> out = new ArrayList<>();
    for (Record4<String, String, BigDecimal, OffsetDateTime> r : db.select(PROVIDER, REASON, total, last)
        .from(table)
        .where(LAST_AT.ge(since.atOffset(ZoneOffset.UTC)))
        .groupBy(PROVIDER, REASON)
        .orderBy(total.desc(), PROVIDER, REASON)
        .fetch()) {
      out.add(new Sum(r.value1(), r.value2(), r.value3().longValue(), r.value4().toInstant()));
    }
    return out;
  }
}
