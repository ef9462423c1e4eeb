/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static dev.spindle.console.ConsoleTest.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A token holding {@code ~} (in its alphabet) presented percent-encoded, as {@code %7E}: Java's
 * {@code URLEncoder} writes it so, and a URL may escape any character. The console compared the
 * query's value as sent and refused the right token as wrong (403).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PercentEncodedTokenTest {

    private static final String TOKEN = "tilde~token~for-the.tests";

    /** Decoding must not make a wrong token right either, nor a malformed escape anything but a refusal. */
    @Test
    void aTokenWithItsTildeEscapedIsTheTokenAndAWrongOneStaysWrong() throws Exception {
        try (Console console = Console.builder().token(TOKEN).start()) {
            URI base = URI.create("http://127.0.0.1:" + console.address().getPort() + "/snapshot?token=");
            String encoded = URLEncoder.encode(TOKEN, StandardCharsets.UTF_8);
            assertThat(encoded).as("what URLEncoder makes of it").contains("%7E");
            assertThat(get(URI.create(base + encoded)).statusCode()).as("?token=" + encoded).isEqualTo(200);
            assertThat(get(URI.create(base + TOKEN.replace("~", "%7e"))).statusCode()).as("lower-case hex")
                    .isEqualTo(200);
            assertThat(get(URI.create(base + TOKEN)).statusCode()).as("as it is").isEqualTo(200);

            assertThat(get(URI.create(base + TOKEN.replace("~", "%7F"))).statusCode()).isEqualTo(403);
            assertThat(get(URI.create(base + TOKEN.replace("~", "+"))).statusCode()).isEqualTo(403);
            assertThat(get(URI.create(base + "%E0%A4" + TOKEN)).statusCode()).as("not UTF-8").isEqualTo(403);
            // escapes java.net.URI would not build: sent as they are
            String request = "GET /snapshot?token=%s HTTP/1.1\r\nHost: 127.0.0.1:" + console.address().getPort()
                    + "\r\n\r\n";
            for (String malformed : new String[] {TOKEN + "%", TOKEN.replace("~", "%zz"), "%7" + TOKEN}) {
                assertThat(ConsoleAttackTest.raw(console, String.format(request, malformed))).as(malformed)
                        .matches("HTTP/1\\.1 40[03] .*");
            }
            assertThat(get(URI.create(base + TOKEN)).statusCode()).as("served all along").isEqualTo(200);
        }
    }
}
