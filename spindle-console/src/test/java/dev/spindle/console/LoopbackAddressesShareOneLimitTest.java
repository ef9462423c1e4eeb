/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static dev.spindle.console.ConnectionsPerAddressTest.bindable;
import static dev.spindle.console.ConnectionsPerAddressTest.openStream;
import static dev.spindle.console.ConsoleAttackTest.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A local process can send from any address of 127.0.0.0/8 (Linux answers for all of them with
 * no set-up): the limit per address counted each one apart, so one process took every event
 * stream of the console ({@code maxClients}) from 127.0.0.2, 127.0.0.3 and so on, and every other
 * page was refused. Every loopback address is one client now.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopbackAddressesShareOneLimitTest {

    @Test
    void streamsFromManyLoopbackAddressesShareOneAddresssLimit() throws Exception {
        assumeTrue(bindable(InetAddress.getByName("127.0.0.2")), "this host has only 127.0.0.1 (macOS)");
        try (Console console = Console.builder().withoutToken().maxConnectionsPerAddress(3).interval(Duration.ofMillis(100))
                .start()) {
            List<Socket> attacker = new ArrayList<>();
            try {
                for (int i = 2; i <= 4; i++) {
                    attacker.add(openStream(console, InetAddress.getByName("127.0.0." + i)));
                }
                assertThatThrownBy(() -> attacker.add(openStream(console, InetAddress.getByName("127.0.0.5"))))
                        .as("a fourth stream, from a fourth loopback address")
                        .isInstanceOf(ConnectionsPerAddressTest.Refused.class);
                String snapshot = "GET /snapshot HTTP/1.1\r\nHost: 127.0.0.1:" + console.address().getPort()
                        + "\r\n\r\n";
                assertThat(raw(console, snapshot)).as("a request from 127.0.0.1").startsWith("HTTP/1.1 503");
            } finally {
                for (Socket s : attacker) {
                    s.close();
                }
            }
        }
    }

    /** Other addresses are still counted one by one: a whole LAN is not one client. */
    @Test
    void otherAddressesAreCountedApart() throws Exception {
        PerAddress limit = new PerAddress(1);
        InetAddress a = InetAddress.getByName("192.0.2.1");
        InetAddress b = InetAddress.getByName("192.0.2.2");
        InetAddress v6 = InetAddress.getByName("2001:db8::1");
        assertThat(limit.enter(a)).isTrue();
        assertThat(limit.enter(b)).as("another IPv4 address").isTrue();
        assertThat(limit.enter(v6)).as("an IPv6 address").isTrue();
        assertThat(limit.enter(InetAddress.getByName("2001:db8::2"))).as("another of its prefix").isTrue();
        assertThat(limit.enter(a)).as("the first again").isFalse();

        assertThat(limit.enter(InetAddress.getByName("127.0.0.1"))).isTrue();
        assertThat(limit.enter(InetAddress.getByName("127.1.2.3"))).as("another of 127.0.0.0/8").isFalse();
        assertThat(limit.enter(InetAddress.getByName("::1"))).as("the IPv6 loopback").isFalse();
        assertThat(limit.enter(InetAddress.getByName("::ffff:127.0.0.9"))).as("an IPv4-mapped loopback").isFalse();
        limit.leave(InetAddress.getByName("127.200.0.1"));
        assertThat(limit.enter(InetAddress.getByName("::1"))).as("after a loopback exchange ended").isTrue();
    }
}
