package dev.hookledger.samples.app;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hookledger.OnEvent;
import org.jooq.DSLContext;

/**
 * Shopify orders: {@code orders/create} and {@code orders/updated} keep each order's newest total
 * and financial status, whichever of the two arrives first.
 *
 * <p>Shopify does not deliver in order: an {@code orders/updated} can arrive before the
 * {@code orders/create} of the same order, and retries resend the payload as it was when the event
 * fired. The method overwrites the row with what the payload says, which is right only because of
 * {@code skipStale = true}: the ordering guard compares the order's {@code updated_at} with the
 * newest one applied and skips an older payload.
 */
public final class Orders {
  private static final HandlerStatement UPSERT = new HandlerStatement("""
      INSERT INTO sample.shop_order (id, name, total_price, financial_status)
      VALUES (?, ?, ?::numeric, ?)
      ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, total_price = EXCLUDED.total_price,
        financial_status = EXCLUDED.financial_status
      """);

  /** A Shopify order, as far as this sample needs it (Shopify sends money as decimal strings). */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Order(long id, String name, String totalPrice, String financialStatus) {}

  @OnEvent(value = {"orders/create", "orders/updated"}, provider = "shopify", skipStale = true)
  void changed(Order order, DSLContext tx) {
    UPSERT.execute(tx, order.id(), order.name(), order.totalPrice(), order.financialStatus());
  }
}
