/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The runtime closes a connection it drops (a task's value, its handle cancelled during the poll
 * that returned it: see {@link AcceptCancelledAtHandOutTest}), but only when the value was the
 * stream itself: one in the list an {@code all} of accepts returned, or in the selection of a
 * {@code select} an accept won, stayed open for good, held by nobody, its peer waiting. Those
 * containers are the library's own, and the runtime now drops what they hold, but not a value
 * that a handle in them still holds for others.
 */
@Timeout(60)
class DroppedAllAndSelectValueTest {

    @Test
    void anAllOfAcceptsReturnedJustBeforeItsHandleWasCancelledClosesEveryConnection() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor);
                Socket c1 = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort());
                Socket c2 = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort());
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("all-dropped").build()) {
            CompletableFuture<JoinHandle<List<AsyncTcpStream>>> self = new CompletableFuture<>();
            JoinHandle<List<AsyncTcpStream>> h = rt.spawn(
                    cancelWhenReady(Async.all(List.of(listener.accept(), listener.accept())), self));
            self.complete(h);
            assertThat(readOrTimeout(c1)).as("the first client sees its dropped connection closed (-1), not left open (-2)")
                    .isEqualTo(-1);
            assertThat(readOrTimeout(c2)).as("the second client sees its dropped connection closed (-1), not left open (-2)")
                    .isEqualTo(-1);
            assertThat(h.isCancelled()).isTrue();
        }
    }

    @Test
    void aSelectWonByAnAcceptJustBeforeItsHandleWasCancelledClosesTheConnection() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor);
                Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort());
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("select-dropped").build()) {
            CompletableFuture<JoinHandle<Async.Selected<Object>>> self = new CompletableFuture<>();
            AsyncTask<Async.Selected<Object>> first =
                    Async.select(List.of(listener.accept(), Async.sleep(Duration.ofHours(1))));
            JoinHandle<Async.Selected<Object>> h = rt.spawn(cancelWhenReady(first, self));
            self.complete(h);
            assertThat(readOrTimeout(client)).as("the client sees the dropped connection closed (-1), not left open (-2)")
                    .isEqualTo(-1);
            assertThat(h.isCancelled()).isTrue();
        }
    }

    @Test
    void aStreamThatAHandleInTheAllStillHoldsStaysOpen() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor);
                Socket held = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
            AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("all-dropped-handle").build();
            JoinHandle<AsyncTcpStream> spawned;
            JoinHandle<List<AsyncTcpStream>> h;
            try (Socket dropped = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
                spawned = rt.spawn(listener.accept());
                spawned.get(10, TimeUnit.SECONDS);     // the first connection, held by the handle
                CompletableFuture<JoinHandle<List<AsyncTcpStream>>> self = new CompletableFuture<>();
                h = rt.spawn(cancelWhenReady(Async.all(List.of(spawned, listener.accept())), self));
                self.complete(h);
                assertThat(readOrTimeout(dropped)).as("the accept's own connection is closed (-1), not left open (-2)")
                        .isEqualTo(-1);
            } finally {
                rt.close();                        // the worker's poll, and its drop, are over
            }
            assertThat(h.isCancelled()).isTrue();
            try (AsyncTcpStream stream = spawned.get()) {
                assertThat(stream.isOpen()).as("the handle still holds its stream for others").isTrue();
            }
        }
    }

    /** {@code op}, whose own handle is cancelled (by the task itself) once {@code op} returns ready. */
    private static <T> AsyncTask<T> cancelWhenReady(AsyncTask<T> op, CompletableFuture<JoinHandle<T>> self) {
        return cx -> {
            Poll<T> p = op.poll(cx);
            if (p.isReady()) {
                self.join().cancel(false);     // after the op's last look, before the outcome
            }
            return p;
        };
    }

    /** The first byte read, -1 at end of stream, or -2 if nothing came within 5 seconds. */
    private static int readOrTimeout(Socket s) throws IOException {
        s.setSoTimeout(5_000);
        try {
            return s.getInputStream().read();
        } catch (SocketTimeoutException leaked) {
            return -2;
        }
    }
}
