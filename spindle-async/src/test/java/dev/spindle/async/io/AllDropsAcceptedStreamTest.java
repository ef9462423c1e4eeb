/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code all} holds a child's value until every child has one: if another child then fails, or
 * the {@code all} is cancelled, nobody will ever receive that value. A connection the library
 * handed out as it ({@code accept}) must then be closed, as the runtime closes one it drops
 * (see {@code DroppedValues}); kept open, the socket leaked and its peer waited for good.
 */
@Timeout(60)
class AllDropsAcceptedStreamTest {

    /** A context polled by hand: its waker releases a permit. */
    private static final class HandContext implements Context {
        final Semaphore woken = new Semaphore(0);
        private final Waker waker = new Waker() {
            @Override
            public void wake() {
                woken.release();
            }

            @Override
            public boolean expired() {
                return false;
            }
        };

        @Override
        public Waker waker() {
            return waker;
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    }

    @Test
    void allFailingAfterAnAcceptReturnedClosesTheAcceptedConnection() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor);
                Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
            AtomicBoolean accepted = new AtomicBoolean();
            AsyncTask<AsyncTcpStream> accept = listener.accept();
            AsyncTask<Object> first = cx -> {
                Poll<AsyncTcpStream> p = accept.poll(cx);
                if (p.isReady()) {
                    accepted.set(true);
                }
                return p.isReady() ? Poll.ready(p.value()) : Poll.pending();
            };
            AsyncTask<Object> second = cx -> {
                if (accepted.get()) {
                    throw new IllegalStateException("the other child fails");
                }
                cx.waker().wake();             // poll me again until the accept is in
                return Poll.pending();
            };
            AsyncTask<List<Object>> all = Async.all(List.of(first, second));
            HandContext cx = new HandContext();
            assertThatThrownBy(() -> {
                for (;;) {
                    assertThat(all.poll(cx).isPending()).isTrue();
                    assertThat(cx.woken.tryAcquire(10, TimeUnit.SECONDS)).as("woken").isTrue();
                }
            }).isInstanceOf(IllegalStateException.class).hasMessage("the other child fails");
            assertThat(readOrTimeout(client)).as("the client sees the dropped connection closed (-1), not left open (-2)")
                    .isEqualTo(-1);
        }
    }

    @Test
    void allCancelledAfterAnAcceptReturnedClosesTheAcceptedConnection() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor);
                Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
            AtomicBoolean accepted = new AtomicBoolean();
            AsyncTask<AsyncTcpStream> accept = listener.accept();
            AsyncTask<Object> first = cx -> {
                Poll<AsyncTcpStream> p = accept.poll(cx);
                if (p.isReady()) {
                    accepted.set(true);
                }
                return p.isReady() ? Poll.ready(p.value()) : Poll.pending();
            };
            AsyncTask<Object> never = cx -> Poll.pending();
            AsyncTask<List<Object>> all = Async.all(List.of(first, never));
            HandContext cx = new HandContext();
            while (!accepted.get()) {
                assertThat(all.poll(cx).isPending()).isTrue();
                if (!accepted.get()) {
                    assertThat(cx.woken.tryAcquire(10, TimeUnit.SECONDS)).as("woken").isTrue();
                }
            }
            Async.cancel(all);
            assertThat(readOrTimeout(client)).as("the client sees the dropped connection closed (-1), not left open (-2)")
                    .isEqualTo(-1);
        }
    }

    private static int readOrTimeout(Socket s) throws IOException {
        s.setSoTimeout(5_000);
        try {
            return s.getInputStream().read();
        } catch (SocketTimeoutException leaked) {
            return -2;
        }
    }
}
