/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static dev.spindle.console.ConsoleAttackTest.raw;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A host name is case-insensitive (RFC 9110, 4.2.3): a client that writes {@code LOCALHOST} or
 * {@code Localhost} in its Host header (or its absolute-form target) asks for the same console as
 * one writing {@code localhost}. The tokenless console compared them case-sensitively and answered
 * such a request 403, as if it were for another site.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HostHeaderCaseTest {

    @Test
    void theLoopbackNameIsMatchedWhateverItsCase() throws Exception {
        try (Console console = Console.builder().withoutToken().start()) {
            int port = console.address().getPort();
            for (String host : new String[] {"localhost", "LOCALHOST", "Localhost", "lOcAlHoSt"}) {
                assertThat(raw(console, "GET /snapshot HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n"))
                        .as("Host: " + host).startsWith("HTTP/1.1 200");
                assertThat(raw(console, "GET http://" + host + ":" + port + "/snapshot HTTP/1.1\r\nHost: " + host
                        + ":" + port + "\r\n\r\n")).as("absolute form, " + host).startsWith("HTTP/1.1 200");
            }
            // still refused: another name, whatever its case
            assertThat(raw(console, "GET /snapshot HTTP/1.1\r\nHost: LOCALHOST.evil.example:" + port + "\r\n\r\n"))
                    .startsWith("HTTP/1.1 403");
        }
    }
}
