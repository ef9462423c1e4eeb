/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An accept, read, write or connect polled by hand with a {@link Context} whose {@link Context#waker()} is
 * {@code null} (a broken hand-written context, a mock's default answer): as a channel operation,
 * a sleep and the combinators do, the poll must throw a {@link NullPointerException} naming the
 * waker, and arm nothing. Before, the null waker was registered with the reactor and the poll
 * returned pending: readiness later "woke" it with an NPE reported on the selector thread, and
 * the task waited for good, nobody told.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NullWakerTcpOperationsTest {

    private static final Context NO_WAKER = ByHand.context(null);

    @Test
    void anAcceptWithNothingToAcceptThrowsAndWaitsForNothing() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor)) {
            assertThatThrownBy(() -> listener.accept().poll(NO_WAKER))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
            assertThat(listener.registration().readWakerCount()).as("accepts waiting").isZero();
            assertThat(listener.registration().interest()).as("armed interest").isZero();
        }
    }

    @Test
    void anAcceptWithAConnectionWaitingThrowsAndLeavesItForTheNext() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor)) {
            InetSocketAddress address = listener.localAddress();
            try (Socket client = new Socket(address.getAddress(), address.getPort())) {
                client.setSoTimeout(30_000);
                assertThatThrownBy(() -> listener.accept().poll(NO_WAKER))
                        .isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
                // the connection was accepted and closed: the client read the end of the stream
                try (AsyncTcpStream server = accept(listener)) {
                    server.shutdownOutput();
                    assertThat(client.getInputStream().read()).as("end of stream, not a reset").isEqualTo(-1);
                }
            }
        }
    }

    @Test
    void aReadWithNothingToReadThrowsAndArmsNothing() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor)) {
            InetSocketAddress address = listener.localAddress();
            try (Socket client = new Socket(address.getAddress(), address.getPort());
                    AsyncTcpStream server = accept(listener)) {
                assertThatThrownBy(() -> server.read(ByteBuffer.allocate(8)).poll(NO_WAKER))
                        .isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
                assertThat(server.armedInterest()).as("armed interest").isZero();

                client.getOutputStream().write(7);   // the next read, with a waker, still gets it
                ByteBuffer dst = ByteBuffer.allocate(8);
                Semaphore woken = new Semaphore(0);
                Context cx = ByHand.context(woken::release);
                Poll<Integer> p;
                while ((p = server.read(dst).poll(cx)).isPending()) {
                    assertThat(woken.tryAcquire(30, TimeUnit.SECONDS)).as("woken").isTrue();
                }
                assertThat(p.value()).isEqualTo(1);
            }
        }
    }

    @Test
    void aWriteToAFullSocketThrowsAndArmsNothing() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor)) {
            InetSocketAddress address = listener.localAddress();
            try (Socket client = new Socket(address.getAddress(), address.getPort());
                    AsyncTcpStream server = accept(listener)) {
                ByteBuffer chunk = ByteBuffer.allocateDirect(64 * 1024);
                // the client reads nothing: the socket's buffers fill, and a write has to wait
                Throwable thrown = null;
                for (int i = 0; i < 100_000 && thrown == null; i++) {
                    chunk.clear();
                    try {
                        server.write(chunk).poll(NO_WAKER);
                    } catch (NullPointerException e) {
                        thrown = e;
                    }
                }
                assertThat(thrown).as("a write that had to wait").isNotNull().hasMessageContaining("waker");
                assertThat(server.armedInterest() & SelectionKey.OP_WRITE).as("armed write interest").isZero();
            }
        }
    }

    /** A connect opens no socket for a poll that could never be woken. */
    @Test
    void aConnectThrowsNamingTheWaker() throws Exception {
        try (Reactor reactor = Reactor.open();
                ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            AsyncTask<AsyncTcpStream> connect = AsyncTcpStream.connect(server.getLocalSocketAddress(), reactor);
            // threw the JDK's NullPointerException for the waker's expired(), no word of why
            assertThatThrownBy(() -> connect.poll(NO_WAKER))
                    .isInstanceOf(NullPointerException.class).hasMessageStartingWith("Context.waker() returned null");
        }
    }

    /**
     * A connect waiting for its handshake, polled again with a null waker: its task ends with the
     * exception, and nobody else holds the socket. It stayed open (the check was outside the
     * handler that closes it), connected to a peer that never heard of it again.
     */
    @Test
    void aConnectPolledAgainWithANullWakerClosesItsSocket() throws Exception {
        try (Reactor reactor = Reactor.open();
                ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(20_000);
            AsyncTask<AsyncTcpStream> connect = AsyncTcpStream.connect(server.getLocalSocketAddress(), reactor);
            assertThat(connect.poll(ByHand.context(() -> { })).isPending()).as("the connect waits").isTrue();
            assertThatThrownBy(() -> connect.poll(NO_WAKER))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
            try (Socket peer = server.accept()) {
                peer.setSoTimeout(20_000);
                // a SocketTimeoutException: the connect's socket stayed open
                assertThat(peer.getInputStream().read()).as("end of stream: the socket was closed").isEqualTo(-1);
            }
        }
    }

    /**
     * A poll out of budget yields: it wakes its own waker and returns pending. With a null waker
     * it threw the JDK's NullPointerException; now the one a wait throws, before anything is done.
     */
    @Test
    void aPollOutOfBudgetThrowsNamingTheWaker() throws Exception {
        Context spent = new Context() {
            @Override
            public Waker waker() {
                return null;
            }

            @Override
            public boolean consumeBudget() {
                return false;
            }
        };
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor)) {
            InetSocketAddress address = listener.localAddress();
            try (Socket client = new Socket(address.getAddress(), address.getPort())) {
                assertThatThrownBy(() -> listener.accept().poll(spent))
                        .isInstanceOf(NullPointerException.class).hasMessageStartingWith("Context.waker() returned null");
                try (AsyncTcpStream server = accept(listener)) {
                    assertThatThrownBy(() -> server.read(ByteBuffer.allocate(8)).poll(spent))
                            .isInstanceOf(NullPointerException.class).hasMessageStartingWith("Context.waker() returned null");
                    assertThatThrownBy(() -> server.write(ByteBuffer.allocate(8)).poll(spent))
                            .isInstanceOf(NullPointerException.class).hasMessageStartingWith("Context.waker() returned null");
                    assertThatThrownBy(() -> server.writeAll(ByteBuffer.allocate(8)).poll(spent))
                            .isInstanceOf(NullPointerException.class).hasMessageStartingWith("Context.waker() returned null");
                    assertThat(server.armedInterest()).as("armed interest").isZero();
                }
            }
        }
    }

    /** Accepts the connection the test's client made. */
    private static AsyncTcpStream accept(AsyncTcpListener listener) throws InterruptedException {
        Context cx = ByHand.context(() -> { });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Poll<AsyncTcpStream> p;
        while ((p = listener.accept().poll(cx)).isPending()) {
            assertThat(System.nanoTime() - deadline).as("a connection to accept within 20 s").isNegative();
            Thread.sleep(1);
        }
        return p.value();
    }
}
