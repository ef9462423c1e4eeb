/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An accept whose reactor closes during the poll that takes a connection (after the poll's look
 * at the reactor, before it hands the stream out) fails with the reactor's "closed" exception
 * and closes the connection, as an accept that finds the reactor closed at its start does, and
 * as a connect whose connection is made after its reactor closed does. Before, that poll handed
 * out a stream on the closed reactor: every read or write of it that had to wait failed with
 * "the reactor is closed", an accept loop took one connection it could not serve, and the peer
 * saw the connection open. The close is made here by the poll's own waker, whose
 * {@code expired()} the accept asks after it took the connection.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AcceptedAfterReactorCloseTest {

    @Test
    void aConnectionTakenAsItsReactorClosesIsNotHandedOutAndIsClosed() throws Exception {
        Reactor reactor = Reactor.openDriven();
        AtomicReference<AsyncTcpStream> handedOut = new AtomicReference<>();
        try (AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor); Socket client = new Socket()) {
            client.connect(listener.localAddress(), 10_000);   // in the backlog: the handshake is done
            Waker closesTheReactor = new Waker() {
                @Override
                public void wake() {
                }

                @Override
                public boolean expired() {
                    try {
                        reactor.close();       // a close from another thread, landing mid-poll
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    return false;
                }
            };
            Context cx = ByHand.context(closesTheReactor);
            AsyncTask<AsyncTcpStream> accept = listener.accept();

            Throwable thrown = catchThrowable(() -> {
                Poll<AsyncTcpStream> p = accept.poll(cx);
                if (p.isReady()) {
                    handedOut.set(p.value());
                }
            });

            assertThat(reactor.isClosed()).as("the reactor closed during the poll").isTrue();
            assertThat(handedOut.get()).as("no stream is handed out on a closed reactor").isNull();
            assertThat(thrown).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the reactor is closed");
            InputStream in = client.getInputStream();
            client.setSoTimeout(10_000);       // a hang guard: a closed connection answers at once
            int r;
            try {
                r = in.read();
            } catch (SocketTimeoutException leaked) {
                r = -2;
            } catch (SocketException reset) {
                r = -1;                        // closed with a reset: closed all the same
            }
            assertThat(r).as("the peer sees the connection closed (-1), not left open (-2)").isEqualTo(-1);
        } finally {
            AsyncTcpStream s = handedOut.get();
            if (s != null) {
                s.close();
            }
            reactor.close();
        }
    }
}
