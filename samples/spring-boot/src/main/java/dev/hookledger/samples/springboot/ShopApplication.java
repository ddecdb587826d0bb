package dev.hookledger.samples.springboot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A shop that receives Stripe's {@code invoice.paid} at {@code POST /webhooks/stripe}: hookledger's
 * auto-configuration does the rest, from the three properties in {@code application.properties}.
 */
@SpringBootApplication
public class ShopApplication {
  public static void main(String[] args) {
    SpringApplication.run(ShopApplication.class, args);
  }
}
