/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static dev.spindle.console.ConsoleAttackTest.raw;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The attacker is a web page of another site, open in a browser on the console's machine, or a
 * client that names another host in its request target: neither may reach the console, nor take
 * one of its event-stream slots from the real page.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsoleExposureRegressionTest {

    /**
     * A foreign page can open the event stream of a loopback console (its browser sends the right
     * Host, 127.0.0.1:port): with {@code EventSource}, which sends its {@code Origin}, or with a
     * {@code no-cors} fetch, which sends no {@code Origin} but {@code Sec-Fetch-Site: cross-site}
     * and reads the opaque stream for as long as the tab stays open. Each such stream held a
     * slot, so a page with {@code maxClients} of them kept the real console away (503).
     */
    @Test
    void aCrossSiteRequestIsRefusedAndTakesNoStreamSlot() throws Exception {
        try (Console console = Console.builder().withoutToken().maxClients(1).interval(Duration.ofMillis(100)).start()) {
            String host = "127.0.0.1:" + console.address().getPort();
            String events = "GET /events HTTP/1.1\r\nHost: " + host + "\r\n";
            String[] foreign = {
                "Origin: http://evil.example\r\n",
                "Origin: null\r\n",
                "Origin: http://localhost:" + console.address().getPort() + "\r\n",  // not the Host it sent
                "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors\r\n",
                "Sec-Fetch-Site: same-site\r\nSec-Fetch-Mode: no-cors\r\n",  // another port of this machine
            };
            List<Socket> attackers = new ArrayList<>();
            try {
                for (String headers : foreign) {
                    Socket attacker = open(console, events + headers + "\r\n");
                    attackers.add(attacker);       // kept open: a stream it got would keep its slot
                    assertThat(statusLine(attacker)).as("a stream asked for with " + headers.trim())
                            .startsWith("HTTP/1.1 403");
                }
                // the page itself, with every attacker's connection still open: same origin
                assertThat(raw(console, events + "Origin: http://" + host + "\r\nSec-Fetch-Site: same-origin\r\n\r\n"))
                        .as("the real page's stream").startsWith("HTTP/1.1 200");
            } finally {
                for (Socket s : attackers) {
                    s.close();
                }
            }
            assertThat(raw(console, "GET / HTTP/1.1\r\nHost: " + host + "\r\nSec-Fetch-Site: none\r\n\r\n"))
                    .as("the page, its address typed in").startsWith("HTTP/1.1 200");
        }
    }

    /**
     * A request target in absolute form names the host the request is for, and a server uses it
     * in place of the Host header (RFC 9112, section 3.2.2): a loopback console answered one for
     * evil.example as long as the Host header it came with named the console.
     */
    @Test
    void anAbsoluteFormTargetNamingAnotherHostIsRefused() throws Exception {
        try (Console console = Console.builder().withoutToken().start()) {
            int port = console.address().getPort();
            String host = "127.0.0.1:" + port;
            assertThat(raw(console, "GET http://evil.example/snapshot HTTP/1.1\r\nHost: " + host + "\r\n\r\n"))
                    .startsWith("HTTP/1.1 403");
            assertThat(raw(console, "GET http://evil.example:" + port + "/snapshot HTTP/1.1\r\nHost: " + host
                    + "\r\n\r\n")).startsWith("HTTP/1.1 403");
            // the console's own name in absolute form is still served
            assertThat(raw(console, "GET http://" + host + "/snapshot HTTP/1.1\r\nHost: " + host + "\r\n\r\n"))
                    .startsWith("HTTP/1.1 200");
        }
    }

    /**
     * A page that goes away (reloaded, closed) frees its stream's slot only when the console next
     * writes to it. That happened only with the next sample, so with a long interval the page
     * reloaded in its place got 503 (and an {@code EventSource} does not retry after one) for up
     * to a whole interval; the stream now writes an SSE comment at least every second.
     */
    @Test
    void aStreamWhosePageWentAwayFreesItsSlotWithoutWaitingForTheNextSample() throws Exception {
        try (Console console = Console.builder().withoutToken().maxClients(1).interval(Duration.ofMinutes(1)).start()) {
            String events = "GET /events HTTP/1.1\r\nHost: 127.0.0.1:" + console.address().getPort() + "\r\n\r\n";
            try (Socket page = open(console, events)) {
                InputStream in = page.getInputStream();
                String head = "";
                while (!head.contains("data: ")) {
                    int c = in.read();
                    assertThat(c).as("the stream ended early: " + head).isNotEqualTo(-1);
                    head += (char) c;
                }
                assertThat(head).startsWith("HTTP/1.1 200");
            }
            // the reloaded page, within 15 s (the next sample comes a minute after the first)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            String status;
            do {
                Thread.sleep(50);
                status = raw(console, events);
            } while (status.startsWith("HTTP/1.1 503") && System.nanoTime() - deadline < 0);
            assertThat(status).as("the reloaded page's stream").startsWith("HTTP/1.1 200");
        }
    }

    private static Socket open(Console console, String request) throws Exception {
        Socket s = new Socket();
        s.connect(console.address(), 5000);
        s.setSoTimeout(10_000);
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
        return s;
    }

    private static String statusLine(Socket s) throws Exception {
        InputStream in = s.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int c; (c = in.read()) != -1 && c != '\n'; ) {
            line.append((char) c);
        }
        return line.toString().trim();
    }
}
