/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static dev.spindle.console.ConsoleTest.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The token is the query parameter {@code token} wherever it stands in the query. The console
 * looked only at the first 16 parts (the 16th holding the rest of the query, {@code &}s and all),
 * so a script that put it after 16 other parameters was told it sent none (401). The request
 * target is at most {@link Requests#MAX_TARGET} characters, which bounds the parts without that.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TokenAmongManyQueryPartsTest {

    private static final String TOKEN = "a-token-for-the-query-tests";

    @Test
    void theTokenAfterManyOtherParametersIsFound() throws Exception {
        try (Console console = Console.builder().token(TOKEN).start()) {
            String base = "http://127.0.0.1:" + console.address().getPort() + "/snapshot?";
            for (int others : new int[] {0, 15, 16, 40}) {
                StringBuilder query = new StringBuilder();
                for (int i = 0; i < others; i++) {
                    query.append("p").append(i).append("=").append(i).append('&');
                }
                assertThat(get(URI.create(base + query + "token=" + TOKEN)).statusCode())
                        .as("the token after " + others + " other parameters").isEqualTo(200);
                assertThat(get(URI.create(base + query + "token=wrong-" + TOKEN)).statusCode())
                        .as("a wrong token after " + others + " other parameters").isEqualTo(403);
                assertThat(get(URI.create(base + query + "tokens=" + TOKEN)).statusCode())
                        .as("no token after " + others + " other parameters").isEqualTo(401);
            }
        }
    }
}
