/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A read whose value nobody receives after it moved bytes into its buffer: its task's handle
 * cancelled during the poll that read them (the runtime drops what that poll returns), or an
 * {@code all} holding its count failing. Those bytes had left the stream, and the caller, told
 * only that the task was cancelled (or failed), never learnt that its buffer held them: the next
 * read went on after them, a silent gap in the stream. The read now gives them back to the
 * stream, ahead of everything else, and its buffer's position back; the next read gets them.
 * Each test checks that the reader reassembles the peer's bytes exactly, and failed before the
 * fix (the bytes of the cancelled read were missing). The cancel comes from inside the poll,
 * after the transfer, through the stream's test seam.
 */
@Timeout(60)
class ReadCancelledAfterItsTransferTest {

    private static final int PAYLOAD = 3000;

    @AfterEach
    void clearSeam() {
        AsyncTcpStream.afterReadTransfer = null;
    }

    /** Bytes 0, 1, ... (mod 251, so that a missing or repeated run shows). */
    private static byte[] payload() {
        byte[] b = new byte[PAYLOAD];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i % 251);
        }
        return b;
    }

    /**
     * A connected pair, the stream under test and its blocking peer, and the runtime that reads
     * the stream: one worker, so that a cancelled read's poll ends before the next read's begins.
     */
    private static final class Pair implements AutoCloseable {
        final Reactor reactor;
        final ServerSocket server;
        final Socket peer;
        final AsyncTcpStream stream;
        final AsyncRuntime rt;

        Pair(String runtimeName) throws Exception {
            reactor = Reactor.open();
            server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            SocketChannel ch = SocketChannel.open(server.getLocalSocketAddress());
            peer = server.accept();
            stream = new AsyncTcpStream(ch, reactor);
            rt = AsyncRuntime.builder().workers(1).name(runtimeName).build();
        }

        /** The peer sends {@code bytes} and then its end of stream. */
        void send(byte[] bytes) throws Exception {
            sendOnly(bytes);
            peer.shutdownOutput();
        }

        /** The peer sends {@code bytes}, and not yet its end of stream. */
        void sendOnly(byte[] bytes) throws Exception {
            OutputStream out = peer.getOutputStream();
            out.write(bytes);
            out.flush();
        }

        /** Reads until end of stream, one read task at a time, and returns what came. */
        byte[] readToEnd() throws Exception {
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(700);
            for (;;) {
                buf.clear();
                int n = rt.spawn(stream.read(buf)).get(10, SECONDS);
                if (n < 0) {
                    return got.toByteArray();
                }
                got.write(buf.array(), 0, n);
            }
        }

        /** The runtime first, as the tests' resources were closed when it was one of its own. */
        @Override
        public void close() throws IOException {
            try {
                rt.close();
            } finally {
                stream.close();
                peer.close();
                server.close();
                reactor.close();
            }
        }
    }

    /**
     * Spawns {@code read} on {@code p}'s runtime, the seam cancelling its own handle the first
     * time a read moves bytes, and checks that the handle reports the cancel.
     */
    private static void spawnCancelledAtFirstTransfer(Pair p, AsyncTask<Integer> read) {
        CompletableFuture<JoinHandle<Integer>> self = new CompletableFuture<>();
        AtomicBoolean fired = new AtomicBoolean();
        AsyncTcpStream.afterReadTransfer = () -> {
            if (fired.compareAndSet(false, true)) {
                assertThat(self.join().cancel(false)).isTrue();
            }
        };
        JoinHandle<Integer> h = p.rt.spawn(read);
        self.complete(h);
        assertThatThrownBy(() -> h.get(10, SECONDS)).isInstanceOf(CancellationException.class);
    }

    /**
     * Reads {@code p}'s stream to its end and checks that it gives {@code expected} ({@code what}),
     * and that {@code dst}, the buffer of the read whose count was dropped, shows nothing read.
     */
    private static void assertReassembled(Pair p, byte[] expected, String what, ByteBuffer dst) throws Exception {
        byte[] got = p.readToEnd();
        assertThat(got.length).as("bytes reassembled").isEqualTo(expected.length);
        assertThat(got).as(what).isEqualTo(expected);
        assertThat(dst.position()).as("the dropped read's buffer shows nothing read").isZero();
    }

    /**
     * The peer sends the payload and its end; {@code spawned(read)}, {@code read} a read into a
     * buffer of its own, is spawned and its handle cancelled in the poll that reads the bytes;
     * the stream must then give every byte the peer sent.
     */
    private static void assertBytesOfACancelledReadGoBack(String runtimeName, UnaryOperator<AsyncTask<Integer>> spawned)
            throws Exception {
        byte[] sent = payload();
        try (Pair p = new Pair(runtimeName)) {
            p.send(sent);
            ByteBuffer dst = ByteBuffer.allocate(1000);
            spawnCancelledAtFirstTransfer(p, spawned.apply(p.stream.read(dst)));
            // the one worker finishes the cancelled read's poll before it polls the next read
            assertReassembled(p, sent, "the peer's bytes, each once and in order", dst);
        }
    }

    /**
     * The bytes wait in the socket (or arrive while the read waits): the read takes them, and
     * its handle is cancelled before the poll returns their count. Failed before the fix: the
     * reassembled bytes lacked those the cancelled read had taken.
     */
    @Test
    void aReadCancelledInThePollThatReadBytesGivesThemBackToTheStream() throws Exception {
        assertBytesOfACancelledReadGoBack("read-cancel", read -> read);
    }

    /**
     * The read under a timeout, which passes its count on untouched: the runtime's walk from the
     * dropped value finds the read through it. Failed before the fix as the test above did.
     */
    @Test
    void aReadUnderATimeoutCancelledInThePollThatReadBytesGivesThemBack() throws Exception {
        assertBytesOfACancelledReadGoBack("timed-read-cancel", read -> Async.timeout(read, Duration.ofMinutes(5)));
    }

    /**
     * The same cancel, for a read served from the read-ahead buffer: a first read waited (its
     * interest armed, the selector thread reading ahead), so the next one drains the buffer.
     * Failed before the fix as the test above did.
     */
    @Test
    void aReadCancelledInThePollThatDrainedTheReadAheadGivesTheBytesBack() throws Exception {
        byte[] sent = payload();
        try (Pair p = new Pair("read-ahead-cancel")) {
            // a first read that waits before the peer sends anything: its interest is armed
            AsyncTask<Integer> first = p.stream.read(ByteBuffer.allocate(1));
            CountDownLatch waiting = new CountDownLatch(1);
            JoinHandle<Integer> h0 = p.rt.spawn(cx -> {
                Poll<Integer> r = first.poll(cx);
                if (r.isPending()) {
                    waiting.countDown();
                }
                return r;
            });
            assertThat(waiting.await(10, SECONDS)).isTrue();
            p.sendOnly(sent);                  // the end of stream after the cancel: it disarms
            assertThat(h0.get(10, SECONDS)).isEqualTo(1);
            assertThat(p.stream.armedInterest() & SelectionKey.OP_READ)
                    .as("read-ahead on: the next read drains the buffer").isNotZero();

            ByteBuffer dst = ByteBuffer.allocate(1000);
            spawnCancelledAtFirstTransfer(p, p.stream.read(dst));
            p.peer.shutdownOutput();
            byte[] rest = Arrays.copyOfRange(sent, 1, sent.length);
            assertReassembled(p, rest, "the peer's bytes after the first, each once and in order", dst);
        }
    }

    /**
     * An {@code all} whose other task fails once the read has taken its bytes: the all fails and
     * drops the read's count, which nobody receives. Failed before the fix: those bytes were
     * missing from the stream.
     */
    @Test
    void aReadWhoseCountAFailedAllDropsGivesItsBytesBack() throws Exception {
        byte[] sent = payload();
        try (Pair p = new Pair("read-in-failed-all")) {
            p.send(sent);
            ByteBuffer dst = ByteBuffer.allocate(1000);
            AtomicBoolean read = new AtomicBoolean();
            AtomicReference<Waker> failer = new AtomicReference<>();
            AsyncTcpStream.afterReadTransfer = () -> {
                read.set(true);
                Waker w = failer.get();
                if (w != null) {
                    w.wake();
                }
            };
            AsyncTask<Object> failsOnceRead = cx -> {
                if (read.get()) {
                    throw new IllegalStateException("the other task fails");
                }
                failer.set(cx.waker());
                return Poll.pending();
            };
            List<AsyncTask<?>> both = List.of(p.stream.read(dst), failsOnceRead);
            JoinHandle<List<Object>> h = p.rt.spawn(Async.<Object>all(both));
            assertThatThrownBy(() -> h.get(10, SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasRootCauseMessage("the other task fails");
            AsyncTcpStream.afterReadTransfer = null;
            assertReassembled(p, sent, "the peer's bytes, each once and in order", dst);
        }
    }
}
