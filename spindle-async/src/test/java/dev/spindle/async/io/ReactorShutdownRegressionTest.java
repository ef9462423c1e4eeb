/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Waker;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects of a stream and a reactor around the reactor's {@code close()}, found by review
 * (session 30), each test failing before its fix.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReactorShutdownRegressionTest {

    /** A reactor with its own thread, a runtime, and a stream accepted from a blocking client. */
    private static final class Connection implements AutoCloseable {
        final Reactor reactor = Reactor.open();
        final AsyncRuntime rt = AsyncRuntime.builder().workers(1).build();
        final AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), reactor);
        final Socket client = new Socket();
        final AsyncTcpStream stream;

        Connection() throws Exception {
            client.connect(listener.localAddress());
            stream = rt.spawn(listener.accept()).get(10, TimeUnit.SECONDS);
        }

        /** One read of at most {@code max} bytes: its count, or what it threw. */
        Object read(ByteBuffer dst) throws Exception {
            try {
                return rt.spawn(stream.read(dst)).get(5, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                return e.getCause();
            } catch (TimeoutException e) {
                return "still waiting after 5 s";
            }
        }

        @Override
        public void close() throws Exception {
            client.close();
            stream.close();
            listener.close();
            rt.close();
            reactor.close();
        }
    }

    /** The stream's read interest, read through its registration (private to the stream). */
    private static int readInterest(AsyncTcpStream s) throws ReflectiveOperationException {
        Field f = AsyncTcpStream.class.getDeclaredField("reg");
        f.setAccessible(true);
        return ((Reactor.Registration) f.get(s)).interest() & SelectionKey.OP_READ;
    }

    /**
     * A read that drained a full read-ahead buffer re-armed read interest and then passed the
     * change to the reactor, which refused it once closed: the read threw the reactor's
     * IllegalStateException after moving the bytes into the caller's buffer, so they were lost
     * (the caller sees a failed read). The interest it had armed stayed set, so once the buffer
     * was empty the next read registered its waker with the closed reactor and waited for good.
     * A closed reactor now undoes the re-arm, the read returns its bytes, and every byte the peer
     * sent reaches the reader (those still in the socket too) before a read fails.
     */
    @Test
    void everyByteReadAheadBeforeTheReactorClosedReachesTheReader() throws Exception {
        try (Connection c = new Connection()) {
            OutputStream out = c.client.getOutputStream();
            JoinHandle<Integer> first = c.rt.spawn(c.stream.read(ByteBuffer.allocate(1)));  // arms the read-ahead
            out.write(1);
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            int sent = AsyncTcpStream.READ_AHEAD_BYTES + 3_000;
            byte[] payload = new byte[sent];
            Arrays.fill(payload, (byte) 7);
            out.write(payload);
            out.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (readInterest(c.stream) != 0) {                  // the buffer filled: read-ahead stopped
                assertThat(System.nanoTime()).as("read-ahead buffer never filled").isLessThan(deadline);
                Thread.sleep(1);
            }
            c.reactor.close();
            int received = 0;
            Object r;
            while ((r = c.read(ByteBuffer.allocate(1_000))) instanceof Integer && (Integer) r > 0) {
                received += (Integer) r;
            }
            assertThat(received).as("bytes read before the first failed read (then: %s)", r).isEqualTo(sent);
            assertThat(r).as("a read that would wait on the closed reactor")
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    /**
     * On a closed reactor, a read that found no bytes armed read interest and added its waker
     * before the reactor refused the change: it failed, as documented, but left the interest
     * armed, so the next read on the stream took the "reactor will read" path and waited for a
     * selector that was gone.
     */
    @Test
    void everyReadThatWouldWaitOnAClosedReactorFails() throws Exception {
        try (Connection c = new Connection()) {
            c.reactor.close();
            assertThat(c.read(ByteBuffer.allocate(10))).as("first read").isInstanceOf(IllegalStateException.class);
            assertThat(c.read(ByteBuffer.allocate(10))).as("second read").isInstanceOf(IllegalStateException.class);
            c.client.getOutputStream().write(new byte[3]);
            Object r;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!((r = c.read(ByteBuffer.allocate(10))) instanceof Integer)) {   // until the bytes arrive
                assertThat(r).isInstanceOf(IllegalStateException.class);
                assertThat(System.nanoTime()).as("bytes in the socket never read").isLessThan(deadline);
                Thread.sleep(1);
            }
            assertThat(r).as("bytes waiting in the socket are still read").isEqualTo(3);
        }
    }

    /**
     * {@code close()} joins the selector thread (for up to 10 s). Called on that very thread,
     * from a waker it runs (a task woken there that decides to shut down, a handler), it joined
     * itself and sat out the whole bound, holding every other registration's wake-ups. Here the
     * test watches the selector thread: close must return without the thread entering a join.
     */
    @Test
    void aCloseOnTheSelectorThreadDoesNotJoinItself() throws Exception {
        Reactor reactor = Reactor.open();
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(loopback)) {
            server.configureBlocking(false);
            AtomicReference<Thread> selector = new AtomicReference<>();
            CountDownLatch closing = new CountDownLatch(1);
            CompletableFuture<Void> closed = new CompletableFuture<>();
            Waker closer = () -> {
                selector.set(Thread.currentThread());
                closing.countDown();
                try {
                    reactor.close();
                    closed.complete(null);
                } catch (Throwable e) {
                    closed.completeExceptionally(e);
                }
            };
            reactor.await(reactor.register(server), SelectionKey.OP_ACCEPT, closer);
            try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), server.socket().getLocalPort())) {
                assertThat(closing.await(10, TimeUnit.SECONDS)).as("the waker ran").isTrue();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(9);
                while (!closed.isDone() && System.nanoTime() < deadline) {
                    boolean joining = Arrays.stream(selector.get().getStackTrace())
                            .anyMatch(f -> f.getClassName().equals(Thread.class.getName())
                                    && f.getMethodName().equals("join"));
                    assertThat(joining).as("the selector thread joins itself in close()").isFalse();
                    Thread.sleep(1);
                }
                closed.get(1, TimeUnit.SECONDS);
                selector.get().join(10_000);
                assertThat(selector.get().isAlive()).as("the selector thread ended").isFalse();
                assertThatThrownBy(() -> reactor.await(reactor.register(server), SelectionKey.OP_ACCEPT, () -> { }))
                        .isInstanceOf(IllegalStateException.class);
            }
        }
    }
}
