/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A connection that an accept or a connect hands out as its task's value after its last look at
 * the waker ({@code expired()}) while the task's handle is cancelled before the runtime records
 * that value: the runtime drops the value, and nobody ever received the stream, which stayed
 * open for good (its peer waited). The runtime now closes a dropped stream, and no other value.
 */
@Timeout(60)
class AcceptCancelledAtHandOutTest {

    /** A task of the caller's that wraps the accept's context, and cancels at the accept's last look. */
    @Test
    void anAcceptCancelledAfterItsLastLookClosesTheConnection() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor);
                Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort());
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("accept-late-cancel").build()) {
            AsyncTask<AsyncTcpStream> accept = listener.accept();
            CompletableFuture<JoinHandle<AsyncTcpStream>> self = new CompletableFuture<>();
            AsyncTask<AsyncTcpStream> task = cx -> accept.poll(new Context() {
                @Override
                public Waker waker() {
                    return new Waker() {
                        @Override
                        public void wake() {
                            cx.waker().wake();
                        }

                        @Override
                        public boolean expired() {
                            boolean e = cx.waker().expired();
                            self.join().cancel(false);  // just after the look
                            return e;
                        }
                    };
                }

                @Override
                public boolean consumeBudget() {
                    return cx.consumeBudget();
                }
            });
            JoinHandle<AsyncTcpStream> h = rt.spawn(task);
            self.complete(h);
            assertThat(readOrTimeout(client)).as("the client sees the dropped connection closed (-1), not left open (-2)")
                    .isEqualTo(-1);
            assertThat(h.isCancelled()).isTrue();
        }
    }

    @Test
    void anAcceptThatReturnedJustBeforeItsHandleWasCancelledClosesTheConnection() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor);
                Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort());
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("accept-cancel-after").build()) {
            AsyncTask<AsyncTcpStream> accept = listener.accept();
            CompletableFuture<JoinHandle<AsyncTcpStream>> self = new CompletableFuture<>();
            // the accept polled with the runtime's own context, the cancel right after it returned
            JoinHandle<AsyncTcpStream> h = rt.spawn(cancelWhenReady(accept, self));
            self.complete(h);
            assertThat(readOrTimeout(client)).as("the client sees the dropped connection closed (-1), not left open (-2)")
                    .isEqualTo(-1);
            assertThat(h.isCancelled()).isTrue();
        }
    }

    @Test
    void aConnectThatReturnedJustBeforeItsHandleWasCancelledClosesTheConnection() throws Exception {
        try (Reactor reactor = Reactor.open();
                ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("connect-cancel-after").build()) {
            AsyncTask<AsyncTcpStream> connect = AsyncTcpStream.connect(server.getLocalSocketAddress(), reactor);
            CompletableFuture<JoinHandle<AsyncTcpStream>> self = new CompletableFuture<>();
            JoinHandle<AsyncTcpStream> h = rt.spawn(cancelWhenReady(connect, self));
            self.complete(h);
            server.setSoTimeout(10_000);
            try (Socket peer = server.accept()) {
                assertThat(readOrTimeout(peer)).as("the peer sees the dropped connection closed (-1), not left open (-2)")
                        .isEqualTo(-1);
            }
            assertThat(h.isCancelled()).isTrue();
        }
    }

    @Test
    void aDroppedValueOfTheCallersOwnIsNotClosed() throws Exception {
        AtomicBoolean closed = new AtomicBoolean();
        AutoCloseable mine = () -> closed.set(true);   // may be shared: the runtime leaves it alone
        CompletableFuture<JoinHandle<AutoCloseable>> self = new CompletableFuture<>();
        AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("user-value-dropped").build();
        JoinHandle<AutoCloseable> h;
        try {
            h = rt.spawn(cancelWhenReady(cx -> Poll.ready(mine), self));
            self.complete(h);
        } finally {
            rt.close();                        // the worker's poll, and its drop, are over
        }
        assertThat(h.isCancelled()).isTrue();
        assertThat(closed).isFalse();
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
