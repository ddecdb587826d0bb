package dev.hookledger.samples.app;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jooq.DSLContext;

/**
 * {@code GET /sample/state.json}: the sample application's business state as JSON (see
 * {@link SampleState}), read fresh on every request.
 */
public final class StateServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  /** Pretty-printed, because people read this page. */
  static final ObjectMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private final transient DSLContext db;

  public StateServlet(DSLContext db) {
    this.db = requireNonNull(db, "db");
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    SampleState state = SampleState.read(db);
    resp.setContentType("application/json");
    resp.setCharacterEncoding("UTF-8");
    resp.setHeader("Cache-Control", "no-store");
    JSON.writeValue(resp.getOutputStream(), state);
  }
}
