/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.TestExecutor;
import dev.spindle.testkit.ChildJvm;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Contracts of the public TCP API a user relies on: end of stream, closing, failed connects. */
class TcpApiRegressionTest {

    /** A stream accepted from a plain blocking client socket. */
    private static AsyncTcpStream acceptFrom(AsyncTcpListener listener, Socket client) throws Exception {
        client.connect(listener.localAddress(), 5_000);
        return TestExecutor.tenSecondLimit().blockOn(listener.accept());
    }

    @Test
    void endOfStreamIsReportedOnEveryReadAfterIt() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
                Socket client = new Socket()) {
            AsyncTcpStream s = acceptFrom(listener, client);
            try {
                // a first read that waits arms the read-ahead; the bytes and the end come through it
                CompletableFuture<Integer> first = CompletableFuture.supplyAsync(
                        () -> TestExecutor.tenSecondLimit().blockOn(s.read(ByteBuffer.allocate(8))));
                Thread.sleep(50);
                client.getOutputStream().write(new byte[] {1, 2, 3});
                client.shutdownOutput();
                assertThat(first.get(15, TimeUnit.SECONDS)).isBetween(1, 3);
                ByteBuffer rest = ByteBuffer.allocate(8);
                int n;
                int total = 0;
                while ((n = TestExecutor.tenSecondLimit().blockOn(s.read(rest))) > 0) {
                    total += n;
                }
                assertThat(n).isEqualTo(-1);
                for (int i = 0; i < 3; i++) {
                    assertThat(TestExecutor.tenSecondLimit().blockOn(s.read(ByteBuffer.allocate(8)))).isEqualTo(-1);
                }
                // half-closed: this side can still answer
                TestExecutor.tenSecondLimit().blockOn(s.writeAll(ByteBuffer.wrap(new byte[] {9})));
                assertThat(client.getInputStream().read()).isEqualTo(9);
            } finally {
                s.close();
            }
        }
    }

    @Test
    void operationsAfterCloseFailWithAClosedChannelCause() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
                Socket client = new Socket()) {
            AsyncTcpStream s = acceptFrom(listener, client);
            s.close();
            s.close();   // idempotent
            assertThat(s.isOpen()).isFalse();
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(s.read(ByteBuffer.allocate(4))))
                    .isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(ClosedChannelException.class);
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(s.write(ByteBuffer.allocate(4))))
                    .isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(ClosedChannelException.class);
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(s.writeAll(ByteBuffer.allocate(4))))
                    .isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(ClosedChannelException.class);
            assertThatThrownBy(s::shutdownOutput).isInstanceOf(UncheckedIOException.class);
            assertThat(s.remoteAddress()).isNull();
            // the peer sees the end of the stream
            assertThat(client.getInputStream().read()).isEqualTo(-1);

            listener.close();
            listener.close();
            assertThat(listener.isOpen()).isFalse();
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(listener.accept()))
                    .isInstanceOf(UncheckedIOException.class);
        }
    }

    @Test
    void closingAStreamFailsAWriteThatWaitsForTheSendBuffer() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
                Socket client = new Socket()) {
            client.setReceiveBufferSize(4096);
            AsyncTcpStream s = acceptFrom(listener, client);
            // the client never reads: this write fills both buffers and waits
            CompletableFuture<Void> write = CompletableFuture.runAsync(
                    () -> TestExecutor.tenSecondLimit().blockOn(s.writeAll(ByteBuffer.allocateDirect(32 << 20))));
            Thread.sleep(200);
            assertThat(write).isNotDone();
            s.close();
            assertThatThrownBy(() -> write.get(15, TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(ClosedChannelException.class);
        }
    }

    @Test
    void closingAListenerFailsAnAcceptThatWaits() throws Exception {
        try (Reactor reactor = Reactor.open()) {
            AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
            CompletableFuture<AsyncTcpStream> accept = CompletableFuture.supplyAsync(
                    () -> TestExecutor.tenSecondLimit().blockOn(listener.accept()));
            Thread.sleep(100);
            listener.close();
            assertThatThrownBy(() -> accept.get(15, TimeUnit.SECONDS)).hasCauseInstanceOf(UncheckedIOException.class);
        }
    }

    @Test
    void aFailedConnectKeepsNoChannelOnItsReactor() throws Exception {
        InetSocketAddress closed;
        try (AsyncTcpListener l = AsyncTcpListener.bind(null)) {
            closed = l.localAddress();
        }
        try (Reactor reactor = Reactor.open()) {
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(AsyncTcpStream.connect(closed, reactor)))
                        .isInstanceOf(UncheckedIOException.class)
                        .hasRootCauseInstanceOf(java.net.ConnectException.class);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (reactor.registeredChannels() != 0 && System.nanoTime() < deadline) {
                reactor.wakeup();
                Thread.sleep(10);
            }
            assertThat(reactor.registeredChannels()).isZero();
        }
    }

    @Test
    void everyByteOfAWriteLargerThanTheSocketBuffersReachesASlowReader() throws Exception {
        byte[] payload = new byte[3 << 20];
        new java.util.Random(7).nextBytes(payload);
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
                Socket client = new Socket()) {
            client.setReceiveBufferSize(8192);
            AsyncTcpStream s = acceptFrom(listener, client);
            try {
                CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                    try {
                        InputStream in = client.getInputStream();
                        byte[] got = new byte[payload.length];
                        int off = 0;
                        byte[] chunk = new byte[1000];
                        for (int n; off < got.length && (n = in.read(chunk)) > 0; off += n) {
                            System.arraycopy(chunk, 0, got, off, n);
                        }
                        return Arrays.copyOf(got, off);
                    } catch (java.io.IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                ByteBuffer src = ByteBuffer.wrap(payload);
                TestExecutor.tenSecondLimit().blockOn(s.writeAll(src));
                assertThat(src.hasRemaining()).isFalse();
                assertThat(received.get(15, TimeUnit.SECONDS)).isEqualTo(payload);
                // a single write of an empty buffer, a read into a full one: 0 at once
                assertThat(TestExecutor.tenSecondLimit().blockOn(s.write(ByteBuffer.allocate(0)))).isZero();
                assertThat(TestExecutor.tenSecondLimit().blockOn(s.read(ByteBuffer.allocate(0)))).isZero();
            } finally {
                s.close();
            }
        }
    }

    @Test
    void anOwnedGroupMayBeClosedTwice() throws Exception {
        ReactorGroup group = ReactorGroup.open(2);
        group.close();
        group.close();
        for (Reactor r : group.reactors()) {
            assertThat(r.isClosed()).isTrue();
        }
    }

    /**
     * The shared group has one reactor per four processors: with eight, a second one besides
     * {@link Reactor#shared()}. Closing it must be refused as closing the first is, or every
     * other connect of the JVM afterwards fails.
     */
    @Test
    void noReactorOfTheSharedGroupCanBeClosed() throws Exception {
        String out = ChildJvm.run(SharedGroupChild.class, 45, "-XX:ActiveProcessorCount=8");
        assertThat(out).contains("reactors=2").doesNotContain("closed reactor").contains("connects=4");
    }

    /** Tries to close each reactor of the shared group, then connects through the group. */
    static final class SharedGroupChild {
        public static void main(String[] args) throws Exception {
            ReactorGroup group = ReactorGroup.shared();
            System.out.println("reactors=" + group.reactors().size());
            for (Reactor r : group.reactors()) {
                try {
                    r.close();
                    System.out.println("closed reactor " + r);
                } catch (IllegalStateException refused) {
                    System.out.println("refused");
                }
            }
            int connects = 0;
            try (AsyncTcpListener listener = AsyncTcpListener.bind(null)) {
                for (int i = 0; i < 4; i++) {
                    try {
                        AsyncTcpStream s = TestExecutor.run(AsyncTcpStream.connect(listener.localAddress()));
                        s.close();
                        connects++;
                    } catch (RuntimeException e) {
                        System.out.println("connect failed: " + e);
                    }
                }
            }
            System.out.println("connects=" + connects);
        }
    }
}
