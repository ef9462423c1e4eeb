/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.util.Collections;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A listener bound without an address is reachable from this machine only (loopback), as
 * everything Spindle exposes is unless the application names an address.
 */
class ListenerBindTest {

    @Test
    void noAddressMeansLoopbackOnly() throws Exception {
        try (AsyncTcpListener listener = AsyncTcpListener.bind(null)) {
            InetSocketAddress at = listener.localAddress();
            assertThat(at.getAddress().isLoopbackAddress()).as("bound to %s", at).isTrue();
            assertThat(at.getPort()).isPositive();
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), at.getPort())) {
                assertThat(s.isConnected()).isTrue();
            }
        }
    }

    @Test
    void aClientOnAnotherInterfaceIsRefused() throws Exception {
        Optional<InetAddress> external = nonLoopbackAddress();
        if (external.isEmpty()) {
            return;                            // a machine with loopback alone: nothing to attack from
        }
        try (AsyncTcpListener listener = AsyncTcpListener.bind(null)) {
            int port = listener.localAddress().getPort();
            assertThatThrownBy(() -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(external.get(), port), 5_000);
                }
            }).as("connecting through %s", external.get()).isInstanceOf(IOException.class);
        }
    }

    @Test
    void anExplicitAddressIsKept() throws Exception {
        try (AsyncTcpListener listener = AsyncTcpListener.bind(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            assertThat(listener.localAddress().getAddress()).isEqualTo(InetAddress.getLoopbackAddress());
        }
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!ni.isUp() || ni.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    return Optional.of(a);
                }
            }
        }
        return Optional.empty();
    }
}
