/**
 * Standard Webhooks (<a href="https://www.standardwebhooks.com">standardwebhooks.com</a>, spec
 * v1.0.0): the signature scheme of Svix and of the many providers built on it (Clerk, Resend,
 * Replicate, ...). One adapter serves any of them under the provider id you choose:
 *
 * <pre>{@code
 * WebhookRuntime.builder()
 *     .provider(StandardWebhooksAdapter.named("clerk"),
 *         Secrets.fromEnvironment("CLERK_WEBHOOK_SECRET"))      // whsec_...
 * }</pre>
 */
package dev.hookledger.standardwebhooks;
