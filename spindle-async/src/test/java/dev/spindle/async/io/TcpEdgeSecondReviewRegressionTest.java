/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.TestExecutor;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Second review of fb03d29e (unresolved and non-IP addresses, bind and accept on a closed
 * reactor), session 34. The first test failed before its fix; the rest pin what was found
 * correct around the new checks.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpEdgeSecondReviewRegressionTest {

    /**
     * {@link AsyncTcpListener#accept()}: "Once the listener is closed it fails with an
     * UncheckedIOException". The reactor check fb03d29e put before {@code channel.accept()}
     * answered a closed listener whose reactor was closed afterwards (try-with-resources closes
     * the listener first, then the reactor or group; an accept woken by the listener's close
     * polls again after that) with the reactor's IllegalStateException instead: a server loop
     * that told the end of listening by the closed channel got a different exception type.
     */
    @Test
    void anAcceptOnAClosedListenerFailsAsClosedAlsoOnceItsReactorIsClosed() throws Exception {
        Reactor reactor = Reactor.open();
        try {
            AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
            listener.close();
            reactor.close();
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(listener.accept()))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(ClosedChannelException.class);
        } finally {
            reactor.close();
        }
        // the same with a group, closed in the order try-with-resources closes them
        ReactorGroup group = ReactorGroup.open(2);
        AsyncTcpListener listener;
        try (group; AsyncTcpListener l = AsyncTcpListener.bind(null, group)) {
            listener = l;
        }
        assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(listener.accept()))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(ClosedChannelException.class);
    }

    /**
     * Found correct, pinned: a {@code null} local address is an ephemeral loopback port (no
     * IllegalArgumentException from the new type check), on a reactor, a group and the shared
     * group; the shared group's accept, which now checks its reactor first, still accepts.
     */
    @Test
    void aNullLocalAddressBindsAnEphemeralLoopbackPortAndTheSharedGroupStillAccepts() throws Exception {
        try (Reactor reactor = Reactor.open();
                ReactorGroup group = ReactorGroup.open(1);
                AsyncTcpListener onReactor = AsyncTcpListener.bind(null, reactor);
                AsyncTcpListener onGroup = AsyncTcpListener.bind(null, group);
                AsyncTcpListener shared = AsyncTcpListener.bind(null)) {
            for (AsyncTcpListener l : new AsyncTcpListener[] {onReactor, onGroup, shared}) {
                assertThat(l.localAddress().getAddress().isLoopbackAddress()).isTrue();
                assertThat(l.localAddress().getPort()).isPositive();
            }
            try (Socket client = new Socket()) {
                client.connect(shared.localAddress(), 5_000);
                try (AsyncTcpStream accepted = TestExecutor.tenSecondLimit().blockOn(shared.accept())) {
                    assertThat(accepted.isOpen()).isTrue();
                }
            }
        }
    }

    /**
     * Found correct, pinned: a driven group that no runtime drives (yet, or any more) is open,
     * so bind takes it (a later runtime drives it); once the group is closed, bind is refused
     * before a port is taken, as for a group with selector threads.
     */
    @Test
    void aDrivenGroupBindsUntilItIsClosedThenRefuses() throws Exception {
        ReactorGroup driven = ReactorGroup.openDriven(1);
        try (AsyncTcpListener l = AsyncTcpListener.bind(null, driven)) {
            assertThat(l.isOpen()).isTrue();
        } finally {
            driven.close();
        }
        assertThatThrownBy(() -> AsyncTcpListener.bind(null, driven))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    /**
     * Found correct, pinned: the one-argument {@code connect} and {@code bind} (the shared group)
     * report an unresolved address as the others do.
     */
    @Test
    void theSharedGroupsConnectAndBindReportAnUnresolvedHost() {
        InetSocketAddress unresolved = InetSocketAddress.createUnresolved("no-such-host.invalid", 80);
        assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(AsyncTcpStream.connect(unresolved)))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(UnknownHostException.class)
                .hasMessageContaining("no-such-host.invalid");
        assertThatThrownBy(() -> AsyncTcpListener.bind(unresolved))
                .isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("no-such-host.invalid");
    }
}
