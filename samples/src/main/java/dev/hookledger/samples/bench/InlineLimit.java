package dev.hookledger.samples.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;

/**
 * The inline design at the database alone: a plan's deliveries written as {@link InlineDesign}
 * writes them (ledger row and the handler's effect, one transaction per event), straight over JDBC
 * with K connections: no HTTP, no signature, no parsing (done before the clock starts). The ceiling
 * of any design that settles each event in a transaction of its own on this database.
 */
final class InlineLimit {
  private static final String SCHEMA = "bench_inline_database";

  /** A plan's deliveries as the database-alone loops write them: bodies and effects, parsed before the clock starts. */
  record Deliveries(InlineDesign.Effect[] effects, byte[][] bodies) {
    static Deliveries of(LoadPlan plan) throws IOException {
      int rows = plan.deliveries();
      InlineDesign.Effect[] effects = new InlineDesign.Effect[rows];
      byte[][] bodies = new byte[rows][];
      for (int n = 0; n < rows; n++) {
        LoadPlan.Event e = plan.event(n);
        bodies[n] = e.body().getBytes(StandardCharsets.UTF_8);
        effects[n] = InlineDesign.effect(e.provider(), e.id(), bodies[n]);
      }
      return new Deliveries(effects, bodies);
    }

    int rows() {
      return bodies.length;
    }
  }

  private InlineLimit() {}

  static RawInsertLimit.Result measure(String jdbcUrl, LoadPlan plan, int connections) throws Exception {
    InlineDesign design = new InlineDesign(SCHEMA);
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      design.prepare(c);
    }
    Deliveries d = Deliveries.of(plan);
    return RawInsertLimit.loop(jdbcUrl, connections, d.rows(), "the inline design's loop", c -> {
      c.setAutoCommit(false);
      return n -> design.write(c, d.effects()[n], d.bodies()[n]);
    });
  }
}
