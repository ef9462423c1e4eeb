/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A console on loopback served anyone who could reach loopback, without a token: every user of
 * the machine, and every container of a pod sharing its network, could read task names, errors
 * and spawn sites (only the {@code spindle console} command made a token). The library now makes
 * a random token unless the application gives one or says {@link Console.Builder#withoutToken()}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TokenByDefaultTest {

    private static final String TOKEN = "a-token-the-script-knows";

    private static HttpResponse<String> get(URI uri) throws Exception {
        return ConsoleTest.HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI base(Console console) {
        return URI.create("http://127.0.0.1:" + console.address().getPort() + "/");
    }

    @Test
    void aDefaultConsoleOnLoopbackAnswersOnlyThoseWithItsRandomToken() throws Exception {
        try (Console console = Console.start(); Console other = Console.builder().start()) {
            String query = console.uri().getQuery();
            assertThat(query).as("the page's URL carries the token").matches("token=[A-Za-z0-9_-]{32}");
            assertThat(other.uri().getQuery()).as("each console its own token").isNotEqualTo(query);
            String token = query.substring("token=".length());

            assertThat(get(base(console)).statusCode()).as("the page without the token").isEqualTo(401);
            assertThat(get(base(console).resolve("/snapshot")).statusCode()).as("a snapshot without it").isEqualTo(401);
            assertThat(get(base(console).resolve("/snapshot?" + other.uri().getQuery())).statusCode())
                    .as("another console's token").isEqualTo(403);
            assertThat(get(console.uri()).statusCode()).as("the page's URL").isEqualTo(200);
            HttpResponse<String> bearer = ConsoleTest.HTTP.send(HttpRequest.newBuilder(base(console).resolve("/snapshot"))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(bearer.statusCode()).as("the token as a bearer").isEqualTo(200);
        }
    }

    @Test
    void withoutTokenServesLoopbackOpenlyAndTheLastSettingWins() throws Exception {
        try (Console open = Console.builder().withoutToken().start()) {
            assertThat(open.uri().getQuery()).isNull();
            assertThat(get(base(open).resolve("/snapshot")).statusCode()).isEqualTo(200);
        }
        try (Console given = Console.builder().withoutToken().token(TOKEN).start()) {
            assertThat(given.uri().getQuery()).isEqualTo("token=" + TOKEN);
            assertThat(get(base(given).resolve("/snapshot")).statusCode()).isEqualTo(401);
            assertThat(get(base(given).resolve("/snapshot?token=" + TOKEN)).statusCode()).isEqualTo(200);
        }
        try (Console open = Console.builder().token(TOKEN).withoutToken().start()) {
            assertThat(open.uri().getQuery()).isNull();
            assertThat(get(base(open).resolve("/snapshot")).statusCode()).isEqualTo(200);
        }
    }
}
