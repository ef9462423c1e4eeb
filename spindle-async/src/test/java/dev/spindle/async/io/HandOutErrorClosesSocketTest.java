/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Waker;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An accept or a connect that has opened its socket and then meets an {@link Error} before it
 * hands the stream out (from the caller's context: its waker, or the waker's
 * {@code expired()}; or no memory for the stream) fails its task, and nobody ever holds the
 * socket. Each closed it on an {@code IOException} or a {@code RuntimeException} only: on an
 * Error the socket stayed open for good, and its peer waited. A poll that throws ends its task,
 * which nobody cancels afterwards, so the operation itself must close the socket.
 */
@Timeout(60)
class HandOutErrorClosesSocketTest {

    /** A context whose waker is given {@code good} times; after that, asking for it throws. */
    private static Context contextFailingAfter(int good, boolean expiredThrows) {
        return new Context() {
            private int asked;

            @Override
            public Waker waker() {
                if (asked++ >= good) {
                    throw new AssertionError("the caller's context fails");
                }
                return new Waker() {
                    @Override
                    public void wake() {
                    }

                    @Override
                    public boolean expired() {
                        if (expiredThrows) {
                            throw new AssertionError("the caller's waker fails");
                        }
                        return false;
                    }
                };
            }

            @Override
            public boolean consumeBudget() {
                return true;
            }
        };
    }

    @Test
    void anAcceptWhoseWakerThrowsAnErrorClosesTheConnection() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor);
                Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
            AsyncTask<AsyncTcpStream> accept = listener.accept();
            Context cx = contextFailingAfter(Integer.MAX_VALUE, true);
            boolean[] failed = {false};
            for (int i = 0; i < 1000 && !failed[0]; i++) {       // until the connection is in the backlog
                try {
                    if (accept.poll(cx).isReady()) {
                        throw new AssertionError("handed out despite the failing waker");
                    }
                    Thread.sleep(5);
                } catch (AssertionError e) {
                    assertThat(e).hasMessage("the caller's waker fails");
                    failed[0] = true;
                }
            }
            assertThat(failed[0]).as("the accept met the failing waker").isTrue();
            assertThat(closedOrLeftOpen(client)).as("the client sees the connection closed (-1), not left open (-2)")
                    .isEqualTo(-1);
        }
    }

    @Test
    void aConnectWhoseContextThrowsAnErrorAfterOpeningItsSocketClosesIt() throws Exception {
        try (Reactor reactor = Reactor.open();
                ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            AsyncTask<AsyncTcpStream> connect = AsyncTcpStream.connect(server.getLocalSocketAddress(), reactor);
            // the first waker (the look at the start of the poll) is fine; the next one (to wait,
            // or for the last look before the hand-out) throws
            Context cx = contextFailingAfter(1, false);
            assertThatThrownBy(() -> connect.poll(cx)).isInstanceOf(AssertionError.class)
                    .hasMessage("the caller's context fails");
            server.setSoTimeout(10_000);
            try (Socket peer = server.accept()) {
                assertThat(closedOrLeftOpen(peer)).as("the peer sees the connection closed (-1), not left open (-2)")
                        .isEqualTo(-1);
            }
        }
    }

    /** -1 once the other end closed (end of stream or reset), -2 if nothing came within 5 seconds. */
    private static int closedOrLeftOpen(Socket s) throws IOException {
        s.setSoTimeout(5_000);
        try {
            return s.getInputStream().read();
        } catch (SocketTimeoutException leaked) {
            return -2;
        } catch (SocketException reset) {
            return -1;
        }
    }
}
