/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A connect that waits for its connection, whose reactor is closed before the poll that finds
 * the connection made (the close wakes it; the handshake completed meanwhile), fails with the
 * reactor's "closed" exception and closes its socket. Before, that poll handed out a stream on
 * the closed reactor: every read or write of it that had to wait failed with "the reactor is
 * closed", and the caller held a socket the peer saw open.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectCompletedAfterReactorCloseTest {

    @Test
    void aConnectionMadeAfterItsReactorClosedFailsTheConnectAndClosesTheSocket() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Reactor reactor = Reactor.open();
            AtomicReference<AsyncTcpStream> handedOut = new AtomicReference<>();
            try {
                AsyncTask<AsyncTcpStream> connect = AsyncTcpStream.connect(server.getLocalAddress(), reactor);
                Context cx = ByHand.context(() -> { });
                Poll<AsyncTcpStream> first = connect.poll(cx);
                if (first.isReady()) {
                    first.value().close();
                }
                assumeTrue(first.isPending(), "this system made the connection at once: no later poll");
                try (SocketChannel accepted = server.accept()) {   // blocking: the handshake is done
                    reactor.close();

                    Throwable thrown = catchThrowable(() -> {
                        Poll<AsyncTcpStream> p = connect.poll(cx);
                        if (p.isReady()) {
                            handedOut.set(p.value());
                        }
                    });

                    assertThat(handedOut.get()).as("no stream is handed out on a closed reactor").isNull();
                    assertThat(thrown).isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("the reactor is closed");
                    InputStream in = accepted.socket().getInputStream();
                    accepted.socket().setSoTimeout(10_000);
                    int r;
                    try {
                        r = in.read();
                    } catch (SocketTimeoutException leaked) {
                        r = -2;
                    }
                    assertThat(r).as("the peer sees the connection closed (-1), not left open (-2)")
                            .isEqualTo(-1);
                }
            } finally {
                AsyncTcpStream s = handedOut.get();
                if (s != null) {
                    s.close();
                }
                reactor.close();
            }
        }
    }
}
