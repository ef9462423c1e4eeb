/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static dev.spindle.console.ConsoleTest.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review of the console's HTTP side: each test failed on the code before its
 * fix (docs/measurements/2026-11-29-s24/edge-regressions-before-after.txt).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ConsoleRegressionTest {

    private static final String TOKEN = "s3cr3t-token-for-the-tests";

    /**
     * With a token, the page is served at {@code uri()} (token in the query), but the page loads
     * its script and style by relative URLs ({@code app.js}, {@code app.css}), which a browser
     * resolves against the page's URL without its query: they carry no token and are refused,
     * so the page never runs.
     */
    @Test
    void withATokenThePagesOwnScriptAndStyleAreServedToThePage() throws Exception {
        try (Console console = Console.builder().token(TOKEN).start()) {
            URI page = console.uri();
            String html = get(page).body();
            // what a browser requests for the page's <script src=...> and <link href=...>
            URI script = page.resolve(attribute(html, "<script src=\""));
            URI style = page.resolve(attribute(html, "<link rel=\"stylesheet\" href=\""));
            assertThat(script.getPath()).isEqualTo("/app.js");
            assertThat(style.getPath()).isEqualTo("/app.css");
            assertThat(get(script).statusCode()).as("GET " + script).isEqualTo(200);
            assertThat(get(style).statusCode()).as("GET " + style).isEqualTo(200);
        }
    }

    /**
     * Without a token the console may bind any loopback address, but it answers only the Host
     * names 127.0.0.1, localhost and [::1]: a console bound to another loopback address refuses
     * its own {@code uri()} with 403.
     */
    @Test
    void aConsoleOnAnotherLoopbackAddressServesItsOwnUri() throws Exception {
        InetAddress other = InetAddress.getByName("127.0.0.2");
        assumeTrue(canBind(other), "127.0.0.2 cannot be bound here");
        try (Console console = Console.builder().withoutToken().bindAddress(other).start()) {
            assertThat(get(console.uri()).statusCode()).as("GET " + console.uri()).isEqualTo(200);
        }
    }

    /** The same for ::1: uri() writes it as [0:0:0:0:0:0:0:1], which the Host check refuses. */
    @Test
    void aConsoleOnIpv6LoopbackServesItsOwnUri() throws Exception {
        InetAddress v6 = InetAddress.getByName("::1");
        assumeTrue(canBind(v6), "::1 cannot be bound here");
        try (Console console = Console.builder().withoutToken().bindAddress(v6).start()) {
            assertThat(get(console.uri()).statusCode()).as("GET " + console.uri()).isEqualTo(200);
        }
    }

    /**
     * Json.number writes an integer of 1e15 or more through {@code Math.round(d * 1000)}, which
     * saturates at Long.MAX_VALUE: 2e16 is sent as 9.223372036854776E15.
     */
    @Test
    void largeNumbersAreWrittenAsThemselves() {
        String written = Json.number(new StringBuilder(), 2e16).toString();
        assertThat(Double.parseDouble(written)).isEqualTo(2e16);
    }

    private static String attribute(String html, String before) {
        int from = html.indexOf(before);
        assertThat(from).as(before).isNotNegative();
        from += before.length();
        return html.substring(from, html.indexOf('"', from));
    }

    private static boolean canBind(InetAddress a) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(a, 0));
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * A browser leaves the default port out of its Host header, so a console on port 80 without a
     * token refused every browser (found in review; no socket is opened here: binding port 80
     * needs privileges).
     */
    @Test
    void onPort80TheHostWithoutAPortIsItsOwn() {
        Requests on80 = new Requests(null, 80, "127.0.0.1");
        assertThat(on80.loopbackHost(java.util.List.of("127.0.0.1"))).isTrue();
        assertThat(on80.loopbackHost(java.util.List.of("localhost"))).isTrue();
        assertThat(on80.loopbackHost(java.util.List.of("[::1]"))).isTrue();
        assertThat(on80.loopbackHost(java.util.List.of("127.0.0.1:80"))).isTrue();
        assertThat(on80.loopbackHost(java.util.List.of("evil.example"))).as("a name: DNS rebinding").isFalse();
        assertThat(on80.loopbackHost(java.util.List.of("127.0.0.1:8080"))).isFalse();
        Requests on8080 = new Requests(null, 8080, "127.0.0.1");
        assertThat(on8080.loopbackHost(java.util.List.of("127.0.0.1"))).as("the default port is 80 only").isFalse();
        assertThat(on8080.loopbackHost(java.util.List.of("127.0.0.1:8080"))).isTrue();
    }
}
