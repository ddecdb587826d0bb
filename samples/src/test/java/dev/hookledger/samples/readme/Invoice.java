package dev.hookledger.samples.readme;

/** The README's opening example, as written: the Stripe invoice fields its handler needs. */
public record Invoice(String customer, long amount_paid) {}   // the fields this handler needs
