package dev.hookledger.samples.traffic;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * Bodies of the events the sample handlers understand, shaped as the providers send them (only
 * the fields that matter here, plus the ones an adapter reads for identity and ordering).
 */
public final class SampleEvents {
  private static final ObjectMapper JSON = JsonMapper.builder().build();
  /** GitHub writes {@code updated_at} in UTC with second precision. */
  private static final DateTimeFormatter GITHUB_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  /** Shopify writes {@code updated_at} with a zone offset and second precision. */
  private static final DateTimeFormatter SHOPIFY_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx").withZone(ZoneOffset.ofHours(-4));

  private SampleEvents() {}

  /** A Stripe {@code invoice.paid} event; {@code created} orders it (in whole seconds). */
  public static String invoicePaid(String eventId, String invoiceId, String customer, long amountCents,
      String currency, Instant created) {
    ObjectNode invoice = JSON.createObjectNode()
        .put("id", invoiceId)
        .put("object", "invoice")
        .put("customer", customer)
        .put("amount_paid", amountCents)
        .put("currency", currency)
        .put("status", "paid");
    return stripeEvent(eventId, "invoice.paid", created, invoice);
  }

  /**
   * A Stripe {@code customer.subscription.*} event ({@code type} is the last segment:
   * {@code created}, {@code updated}, {@code deleted}).
   */
  public static String subscription(String eventId, String type, String subscriptionId, String customer,
      String status, String plan, Instant created) {
    ObjectNode subscription = JSON.createObjectNode()
        .put("id", subscriptionId)
        .put("object", "subscription")
        .put("customer", customer)
        .put("status", status);
    // the current shape: what it sells is in items.data[].price (no top-level plan since 2025-03-31.basil)
    ObjectNode items = subscription.putObject("items").put("object", "list");
    ObjectNode item = items.putArray("data").addObject()
        .put("id", "si_" + subscriptionId)
        .put("object", "subscription_item")
        .put("quantity", 1)
        .put("current_period_start", created.getEpochSecond())
        .put("current_period_end", created.getEpochSecond() + 30L * 24 * 3600);
    item.putObject("price")
        .put("id", "price_" + plan)
        .put("object", "price")
        .put("lookup_key", plan)
        .put("product", "prod_" + plan)
        .put("unit_amount", 1500)
        .put("currency", "usd")
        .putObject("recurring").put("interval", "month");
    items.put("has_more", false).put("url", "/v1/subscription_items?subscription=" + subscriptionId);
    return stripeEvent(eventId, "customer.subscription." + type, created, subscription, "2025-03-31.basil");
  }

  private static String stripeEvent(String id, String type, Instant created, ObjectNode object) {
    return stripeEvent(id, type, created, object, "2024-06-20");
  }

  private static String stripeEvent(String id, String type, Instant created, ObjectNode object, String apiVersion) {
    ObjectNode event = JSON.createObjectNode()
        .put("id", id)
        .put("object", "event")
        .put("api_version", apiVersion)
        .put("created", created.getEpochSecond())
        .put("livemode", false)
        .put("pending_webhooks", 1)
        .put("type", type);
    event.putObject("data").set("object", object);
    return event.toString();
  }

  /** A GitHub {@code issues} event with action {@code opened}. */
  public static String issueOpened(String repository, long issueId, int number, String title,
      Instant updatedAt) {
    ObjectNode body = JSON.createObjectNode().put("action", "opened");
    body.putObject("issue")
        .put("id", issueId)
        .put("number", number)
        .put("title", title)
        .put("state", "open")
        .put("updated_at", GITHUB_TIME.format(updatedAt));
    repository(body, repository);
    return body.toString();
  }

  /** A GitHub {@code push} event of {@code commits} commits to {@code main}. */
  public static String push(String repository, String after, int commits) {
    ObjectNode body = JSON.createObjectNode()
        .put("ref", "refs/heads/main")
        .put("before", "0".repeat(40))
        .put("after", after);
    ArrayNode list = body.putArray("commits");
    for (int i = 0; i < commits; i++) {
      list.addObject().put("id", after.substring(0, 8) + i).put("message", "commit " + (i + 1));
    }
    repository(body, repository);
    return body.toString();
  }

  private static void repository(ObjectNode body, String fullName) {
    body.putObject("repository")
        .put("id", Math.abs((long) fullName.hashCode()))
        .put("full_name", fullName);
  }

  /** A Shopify order as {@code orders/create} and {@code orders/updated} send it. */
  public static String order(long id, String name, String totalPrice, String financialStatus,
      Instant updatedAt) {
    return JSON.createObjectNode()
        .put("id", id)
        .put("admin_graphql_api_id", "gid://shopify/Order/" + id)
        .put("name", name)
        .put("currency", "USD")
        .put("total_price", totalPrice)
        .put("financial_status", financialStatus)
        .put("updated_at", SHOPIFY_TIME.format(updatedAt.truncatedTo(ChronoUnit.SECONDS)))
        .toString();
  }
}
