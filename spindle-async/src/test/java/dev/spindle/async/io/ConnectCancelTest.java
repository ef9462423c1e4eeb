/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Cancellable;
import dev.spindle.async.Context;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A connect whose task is cancelled while the connection is still being made closes the socket
 * it opened: nobody else holds it, so it would otherwise stay open (and registered with the
 * selector) until the operating system gave up on the connection.
 */
class ConnectCancelTest {

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting for " + what).isNegative();
            Thread.sleep(1);
        }
    }

    @Test
    void cancellingAPendingConnectClosesItsSocket() throws Exception {
        List<SocketChannel> fillers = new ArrayList<>();
        try (Reactor reactor = Reactor.open();
                ServerSocketChannel server = ServerSocketChannel.open();
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("connect-cancel").build()) {
            // a listener that never accepts, its backlog filled: one more connect stays pending
            server.bind(new InetSocketAddress("127.0.0.1", 0), 1);
            for (int i = 0; i < 4; i++) {
                SocketChannel f = SocketChannel.open();
                fillers.add(f);
                f.configureBlocking(false);
                f.connect(server.getLocalAddress());
            }
            JoinHandle<AsyncTcpStream> h =
                    rt.spawn(AsyncTcpStream.connect(server.getLocalAddress(), reactor));
            await(() -> h.isDone() || reactor.registeredChannels() == 1, "the connect to wait");
            assumeTrue(!h.isDone(), "this system completed the connect: nothing stays pending");
            assertThat(h.cancel(false)).isTrue();
            await(() -> reactor.registeredChannels() == 0, "the abandoned connect's socket to close");
        } finally {
            for (SocketChannel f : fillers) {
                f.close();
            }
        }
    }

    /**
     * A connect whose connection is made in a poll of a task whose handle was cancelled during
     * that poll: the runtime drops what the poll returns, so a connect that handed its stream out
     * there left the socket open for good (nobody held the stream, and the task's cancel found it
     * handed out). It stays pending now, as a receive served before such a cancel does, and the
     * retiring cancel closes the socket. Found by review (session 41); failed before the fix (the
     * peer's read timed out).
     */
    @Test
    void aConnectCompletedInACancelledPollClosesItsSocket() throws Exception {
        try (Reactor reactor = Reactor.open();
                ServerSocketChannel server = ServerSocketChannel.open();
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("reva-connect").build()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            AsyncTask<AsyncTcpStream> connect = AsyncTcpStream.connect(server.getLocalAddress(), reactor);
            CompletableFuture<JoinHandle<AsyncTcpStream>> self = new CompletableFuture<>();
            CompletableFuture<SocketChannel> peer = new CompletableFuture<>();
            CompletableFuture<Boolean> firstPending = new CompletableFuture<>();
            class ConnectedThenCancelled implements AsyncTask<AsyncTcpStream>, Cancellable {
                @Override
                public Poll<AsyncTcpStream> poll(Context cx) {
                    Poll<AsyncTcpStream> first = connect.poll(cx);
                    firstPending.complete(first.isPending());
                    if (first.isReady()) {
                        return first;          // made at once: not the case under test
                    }
                    try {
                        peer.complete(server.accept());  // blocking: the handshake is done
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    assertThat(self.join().cancel(false)).isTrue();
                    return connect.poll(cx);   // finishConnect succeeds here
                }

                @Override
                public void cancel() {         // withdraws what it awaits, as a combinator does
                    Async.cancel(connect);
                }
            }
            JoinHandle<AsyncTcpStream> h = rt.spawn(new ConnectedThenCancelled());
            self.complete(h);
            boolean pending = firstPending.get(10, SECONDS);
            if (!pending) {
                h.get(10, SECONDS).close();
            }
            assumeTrue(pending, "this system made the connection at once: no second poll");
            try (SocketChannel accepted = peer.get(10, SECONDS)) {
                InputStream in = accepted.socket().getInputStream();
                accepted.socket().setSoTimeout(10_000);
                int r;
                try {
                    r = in.read();
                } catch (SocketTimeoutException leaked) {
                    r = -2;
                }
                assertThat(r).as("the peer sees the abandoned connection closed (-1), not left open (-2)")
                        .isEqualTo(-1);
            }
            assertThat(h.isCancelled()).isTrue();
        }
    }
}
