/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static dev.spindle.console.ConsoleAttackTest.raw;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One client address may hold only so many of the console's connections at once: without a limit
 * per address, one client opening event streams took every slot ({@code maxClients}), for as long
 * as it kept reading them, and every other page was refused (503) meanwhile.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectionsPerAddressTest {

    /**
     * The default, 6 per address, below the default 8 streams: the attacker's seventh connection
     * is refused while two streams are still free, whatever it asks for; and once the attacker
     * lets one go, it gets in again. (Every loopback address is one client, so no other client
     * can be played here: {@link LoopbackAddressesShareOneLimitTest}.)
     */
    @Test
    void oneAddressHoldsAtMostItsShareAndGetsBackInOnceItLetsOneGo() throws Exception {
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(100)).start()) {
            String events = "GET /events HTTP/1.1\r\nHost: " + host(console) + "\r\n\r\n";
            String snapshot = "GET /snapshot HTTP/1.1\r\nHost: " + host(console) + "\r\n\r\n";
            List<Socket> attacker = new ArrayList<>();
            try {
                for (int i = 0; i < 6; i++) {
                    attacker.add(openStream(console, null));
                }
                assertThat(raw(console, events)).as("a seventh stream of the same address").startsWith("HTTP/1.1 503");
                assertThat(raw(console, snapshot)).as("any seventh connection").startsWith("HTTP/1.1 503");

                attacker.remove(0).close();
                // the console notices the closed stream at its next write (a heartbeat within a second)
                String status;
                while ((status = raw(console, snapshot)).startsWith("HTTP/1.1 503")) {
                    Thread.sleep(50);                          // bounded by the class timeout
                }
                assertThat(status).as("the same address, one connection fewer").startsWith("HTTP/1.1 200");
            } finally {
                for (Socket s : attacker) {
                    s.close();
                }
            }
        }
    }

    /** A limit of one: a second connection is refused while the first is served, not after. */
    @Test
    void theLimitIsTheBuildersAndTheRefusalSaysWhy() throws Exception {
        try (Console console = Console.builder().withoutToken().maxConnectionsPerAddress(1).interval(Duration.ofMillis(100)).start()) {
            String snapshot = "GET /snapshot HTTP/1.1\r\nHost: " + host(console) + "\r\n\r\n";
            assertThat(raw(console, snapshot)).as("one at a time").startsWith("HTTP/1.1 200");
            // that request's slot is freed when its exchange ends on the server, which may be just
            // after this client read its answer: until then a stream is refused, as it should be
            Socket opened;
            while ((opened = openStreamUnlessRefused(console)) == null) {
                Thread.sleep(50);                      // bounded by the class timeout
            }
            try (Socket stream = opened) {
                assertThat(ConsoleTest.get(console.uri().resolve("/snapshot")).body())
                        .isEqualTo("503 too many connections from one address\n");
            }
        }
    }

    private static String host(Console c) {
        return "127.0.0.1:" + c.address().getPort();
    }

    /** Whether this host has {@code address} (Linux answers for all of 127.0.0.0/8; macOS does not). */
    static boolean bindable(InetAddress address) {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(address, 0));
            return true;
        } catch (IOException no) {
            return false;
        }
    }

    /** {@link #openStream}, or null if the console answers 503 (too many connections). */
    private static Socket openStreamUnlessRefused(Console console) throws IOException {
        try {
            return openStream(console, null);
        } catch (Refused refused) {
            return null;
        }
    }

    /** The console answered a stream's request 503. */
    static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        Refused(String head) {
            super(head);
        }
    }

    /**
     * Opens an event stream from {@code local} (any address if null) and reads until its first
     * line of events, so it is being served; throws {@link Refused} if it is answered 503.
     */
    static Socket openStream(Console console, InetAddress local) throws IOException {
        Socket s = new Socket();
        if (local != null) {
            s.bind(new InetSocketAddress(local, 0));
        }
        s.connect(new InetSocketAddress("127.0.0.1", console.address().getPort()), 5000);
        s.setSoTimeout(10_000);
        s.getOutputStream().write(("GET /events HTTP/1.1\r\nHost: " + host(console) + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.indexOf("retry: ") < 0) {
            int c = in.read();
            if (c == -1) {
                s.close();
                throw new AssertionError("stream closed: " + head);
            }
            head.append((char) c);
            if (head.length() == "HTTP/1.1 503".length() && head.toString().equals("HTTP/1.1 503")) {
                s.close();
                throw new Refused(head.toString());
            }
        }
        assertThat(head.toString()).startsWith("HTTP/1.1 200");
        return s;
    }
}
