package dev.hookledger.samples.app;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The {@code repository} member of a GitHub event, as far as this sample needs it. */
public record GitHubRepository(@JsonProperty("full_name") String fullName) {}
