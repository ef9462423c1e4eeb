/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.JoinHandle;
import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Defects of a reactor after its {@code close()}, found by review (session 29), each test
 * failing before its fix.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReactorCloseRegressionTest {

    /**
     * Closing a stream queues its registration for the selector, which cancels the key. Once the
     * reactor was closed nobody took anything off that queue again, so every stream closed after
     * the reactor (a server closing its connections after its reactors, as try-with-resources
     * does when the group is declared last) stayed reachable from the reactor, with its socket
     * object and its 16 KiB read-ahead buffer, as long as anything kept the reactor: each stream
     * still open does.
     */
    @ParameterizedTest(name = "driven = {0}")
    @ValueSource(booleans = {false, true})
    void aStreamClosedAfterItsReactorIsNotKeptByTheReactor(boolean driven) throws Exception {
        Reactor reactor = driven ? Reactor.openDriven() : Reactor.open();
        AsyncTcpStream kept = new AsyncTcpStream(SocketChannel.open(), reactor);
        AsyncTcpStream closed = new AsyncTcpStream(SocketChannel.open(), reactor);
        reactor.close();
        closed.close();
        WeakReference<AsyncTcpStream> ref = new WeakReference<>(closed);
        closed = null;
        assertThat(Gc.collected(ref)).as("a stream closed after its reactor").isTrue();
        assertThat(kept.reactor()).isSameAs(reactor);  // the reactor stays reachable to the end
        kept.close();
    }

    /**
     * A connect whose reactor refuses the wait failed with the reactor's IllegalStateException,
     * but left the socket it had opened connected: nobody holds it (the connect's stream is not
     * handed out, and the runtime cancels only tasks it abandons, not a task whose poll threw),
     * so the descriptor leaked and the peer never saw the connection end. Since session 36 a
     * connect on a reactor closed before its first poll opens no socket at all (it used to send
     * its SYN first): the peer gets no connection. A close while the connect is under way still
     * takes the path that closes the socket.
     */
    @Test
    void aConnectThatTheReactorRefusesLeavesNoConnectionAtThePeer() throws Exception {
        Reactor reactor = Reactor.open();
        reactor.close();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build();
                ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            JoinHandle<AsyncTcpStream> connect = rt.spawn(AsyncTcpStream.connect(server.getLocalSocketAddress(), reactor));
            assertThatThrownBy(() -> connect.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(IllegalStateException.class);
            // bounded: an accept that waited for good hung the suite when a connection never came
            server.setSoTimeout(2_000);
            Socket accepted;
            try {
                accepted = server.accept();
            } catch (SocketTimeoutException none) {
                return;                        // no connection: nothing was sent, nothing leaked
            }
            // a connection came: it must at least have been closed (the fix before session 36)
            try (accepted) {
                accepted.setSoTimeout(10_000);
                int read;
                try {
                    read = accepted.getInputStream().read();
                } catch (SocketTimeoutException stillOpen) {
                    read = Integer.MIN_VALUE;
                }
                assertThat(read).as("the peer sees the failed connect's socket closed (-1)").isEqualTo(-1);
            }
        }
    }

    /**
     * A driven reactor's {@code dispatch()} walked the selector's selected-key set without the
     * lock that {@code close()} takes, so a close between two keys of a dispatch (from another
     * thread: closing a driven group while its runtime serves connections) cleared the set under
     * the walk. The ConcurrentModificationException escaped {@code dispatch}, which expects only
     * a ClosedSelectorException, killed the driving worker and with it the whole runtime (every
     * unfinished task failed with "a worker died"): one round in 15 of a stress run that closed
     * the group under echo traffic. Here the first key's waker closes the reactor, on the
     * driving thread, so that the close falls between the two keys every time.
     */
    @Test
    void aCloseBetweenTwoKeysOfADispatchDoesNotBreakTheDispatch() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (ServerSocketChannel a = ServerSocketChannel.open().bind(loopback);
                ServerSocketChannel b = ServerSocketChannel.open().bind(loopback);
                Socket toA = new Socket(InetAddress.getLoopbackAddress(), a.socket().getLocalPort());
                Socket toB = new Socket(InetAddress.getLoopbackAddress(), b.socket().getLocalPort())) {
            a.configureBlocking(false);
            b.configureBlocking(false);
            AtomicInteger woken = new AtomicInteger();
            dev.spindle.async.Waker closer = () -> {
                if (woken.incrementAndGet() == 1) {
                    try {
                        reactor.close();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            };
            reactor.await(reactor.register(a), SelectionKey.OP_ACCEPT, closer);
            reactor.await(reactor.register(b), SelectionKey.OP_ACCEPT, closer);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            int ready = 0;
            while (ready < 2 && System.nanoTime() < end) {
                ready = reactor.select(100_000_000L);   // both pending connections, once registered
            }
            assertThat(ready).as("keys ready").isEqualTo(2);
            reactor.dispatch();
            assertThat(woken.get()).as("both accepts woken: one by the dispatch, one by the close").isEqualTo(2);
        }
    }
}
