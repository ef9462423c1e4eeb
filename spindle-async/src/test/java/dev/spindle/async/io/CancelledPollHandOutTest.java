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
import dev.spindle.async.Waker;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An accept or a connect whose task's handle is cancelled during the poll that makes the
 * connection, after the poll's first look at its context: the runtime drops what that poll
 * returns, so a stream handed out there stayed open for good (nobody held it). The cancel is
 * made to come at that moment from inside the poll, through the context the task is given.
 */
@Timeout(60)
class CancelledPollHandOutTest {

    /** What the peer's socket reads: -1 once the other end is closed, -2 if it stays open. */
    private static int readOrTimeout(Socket s) throws IOException {
        s.setSoTimeout(10_000);
        InputStream in = s.getInputStream();
        try {
            return in.read();
        } catch (SocketTimeoutException leaked) {
            return -2;
        }
    }

    /**
     * The accept takes the budget, then the handle is cancelled (as by another thread just
     * then), then it accepts. Failed before the fix: the client's read timed out (-2), the
     * accepted connection open and registered for good.
     */
    @Test
    void anAcceptWhoseTaskIsCancelledAfterItsBudgetClosesTheConnection() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor);
                Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort());
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("accept-cancel").build()) {
            AsyncTask<AsyncTcpStream> accept = listener.accept();
            CompletableFuture<JoinHandle<AsyncTcpStream>> self = new CompletableFuture<>();
            AsyncTask<AsyncTcpStream> task = cx -> accept.poll(new Context() {
                @Override
                public Waker waker() {
                    return cx.waker();
                }

                @Override
                public boolean consumeBudget() {
                    boolean granted = cx.consumeBudget();
                    self.join().cancel(false);  // the cancel comes right after the budget
                    return granted;
                }
            });
            JoinHandle<AsyncTcpStream> h = rt.spawn(task);
            self.complete(h);
            assertThat(readOrTimeout(client))
                    .as("the client sees the dropped connection closed (-1), not left open (-2)")
                    .isEqualTo(-1);
            assertThat(h.isCancelled()).isTrue();
        }
    }

    /**
     * The connect's poll finds its waker live, and the handle is cancelled just after that look
     * (as by another thread), before the connection is found made. Failed before the fix: the
     * peer's read timed out (-2), the connect having handed its stream out to a dropped poll.
     */
    @Test
    void aConnectWhoseTaskIsCancelledAfterItsFirstLookClosesItsSocket() throws Exception {
        try (Reactor reactor = Reactor.open();
                ServerSocketChannel server = ServerSocketChannel.open();
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("connect-late-cancel").build()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            AsyncTask<AsyncTcpStream> connect = AsyncTcpStream.connect(server.getLocalAddress(), reactor);
            CompletableFuture<JoinHandle<AsyncTcpStream>> self = new CompletableFuture<>();
            CompletableFuture<SocketChannel> peer = new CompletableFuture<>();
            CompletableFuture<Boolean> firstPending = new CompletableFuture<>();
            class CancelledAfterTheLook implements AsyncTask<AsyncTcpStream>, Cancellable {
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
                    boolean[] cancelled = {false};
                    Waker late = new Waker() {
                        @Override
                        public void wake() {
                            cx.waker().wake();
                        }

                        @Override
                        public boolean expired() {
                            boolean e = cx.waker().expired();
                            if (!cancelled[0]) {
                                cancelled[0] = true;
                                self.join().cancel(false);  // just after the connect's look
                            }
                            return e;
                        }
                    };
                    return connect.poll(new Context() {
                        @Override
                        public Waker waker() {
                            return cancelled[0] ? cx.waker() : late;
                        }

                        @Override
                        public boolean consumeBudget() {
                            return cx.consumeBudget();
                        }
                    });
                }

                @Override
                public void cancel() {
                    Async.cancel(connect);
                }
            }
            JoinHandle<AsyncTcpStream> h = rt.spawn(new CancelledAfterTheLook());
            self.complete(h);
            boolean pending = firstPending.get(10, SECONDS);
            if (!pending) {
                h.get(10, SECONDS).close();
            }
            assumeTrue(pending, "this system made the connection at once: no second poll");
            try (SocketChannel accepted = peer.get(10, SECONDS)) {
                assertThat(readOrTimeout(accepted.socket()))
                        .as("the peer sees the abandoned connection closed (-1), not left open (-2)")
                        .isEqualTo(-1);
            }
            assertThat(h.isCancelled()).isTrue();
        }
    }
}
