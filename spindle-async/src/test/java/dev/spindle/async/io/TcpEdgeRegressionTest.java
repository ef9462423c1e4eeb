/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import dev.spindle.async.TestExecutor;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Edges of the TCP layer a Netty user leans on (session 34): unresolvable hosts, closed
 * reactors, half-close, pending operations and close, big writes, timeouts, descriptor leaks.
 * The first five tests failed before their fixes; the rest pin behaviour found correct.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpEdgeRegressionTest {

    private static final String NO_SUCH_HOST = "no-such-host.invalid";

    /** Descriptors this JVM has open now. */
    private static int openFds() {
        String[] fds = new File("/proc/self/fd").list();
        assertThat(fds).as("/proc/self/fd").isNotNull();
        return fds.length;
    }

    /** Waits (bounded) until at most {@code limit} descriptors are open; returns the last count. */
    private static int awaitFdsAtMost(int limit, Reactor reactor) throws InterruptedException {
        return awaitAtMost(limit, reactor, TcpEdgeRegressionTest::openFds);
    }

    /**
     * Waits (bounded) until at most {@code limit} channels are registered: a closed channel's
     * key (and socket) goes at the selector's next select.
     */
    private static int awaitRegisteredAtMost(int limit, Reactor reactor) throws InterruptedException {
        return awaitAtMost(limit, reactor, reactor::registeredChannels);
    }

    /** Waits (bounded) until {@code count} is at most {@code limit}, waking {@code reactor} meanwhile; returns the last count. */
    private static int awaitAtMost(int limit, Reactor reactor, IntSupplier count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int n = count.getAsInt();
        while (n > limit && System.nanoTime() - deadline < 0) {
            reactor.wakeup();                  // cancelled keys (and their sockets) go at a select
            Thread.sleep(10);
            n = count.getAsInt();
        }
        return n;
    }

    /** A free loopback port (free when this returns; nothing else in the test binds ports by number). */
    private static InetSocketAddress freeLoopbackAddress() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), probe.getLocalPort());
        }
    }

    /** {@code task}, counting down {@code pending} each time a poll of it returns pending. */
    private static <T> AsyncTask<T> signalPending(AsyncTask<T> task, CountDownLatch pending) {
        return cx -> {
            Poll<T> p = task.poll(cx);
            if (!p.isReady()) {
                pending.countDown();
            }
            return p;
        };
    }

    // ------------------------------------------------------------------ defects

    /**
     * An unresolved address (a host name the resolver did not know, or one made with
     * {@code createUnresolved}) reached {@code SocketChannel.connect}, which threw the JDK's
     * UnresolvedAddressException out of the task's poll: an unchecked exception without any
     * message (the host named nowhere), where the class promises I/O errors as
     * UncheckedIOException, as every other failed connect ("connect to ... failed") reports. The
     * socket it had opened was closed; now none is opened.
     */
    @Test
    void aConnectToAnUnresolvableHostFailsWithAnUncheckedIOExceptionNamingTheHost() throws Exception {
        try (Reactor reactor = Reactor.open()) {
            InetSocketAddress nowhere = InetSocketAddress.createUnresolved(NO_SUCH_HOST, 80);
            executorConnectFails(nowhere, reactor);    // warm up: classes loaded, jars opened
            int before = openFds();
            for (int i = 0; i < 20; i++) {
                executorConnectFails(nowhere, reactor);
            }
            assertThat(awaitFdsAtMost(before, reactor)).as("descriptors open after 20 failed connects").isLessThanOrEqualTo(before);
            assertThat(reactor.registeredChannels()).isZero();
        }
    }

    private static void executorConnectFails(InetSocketAddress nowhere, Reactor reactor) {
        assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(AsyncTcpStream.connect(nowhere, reactor)))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(NO_SUCH_HOST)
                .hasCauseInstanceOf(UnknownHostException.class);
    }

    /**
     * The same for {@code bind}: an unresolved local address threw UnresolvedAddressException
     * (no message) where bind documents an IOException for a socket that cannot be bound.
     */
    @Test
    void aBindToAnUnresolvableHostFailsWithAnIOExceptionNamingTheHost() throws Exception {
        try (Reactor reactor = Reactor.open()) {
            assertThatThrownBy(() -> AsyncTcpListener.bind(InetSocketAddress.createUnresolved(NO_SUCH_HOST, 0), reactor))
                    .isInstanceOf(UnknownHostException.class)
                    .hasMessageContaining(NO_SUCH_HOST);
        }
    }

    /**
     * {@code bind} on a closed reactor (or a closed group) bound the port and returned a
     * listener that could never accept (each accept failed with "the reactor is closed") while
     * it held the port: a server restarted on the same port with a fresh reactor failed with
     * "Address already in use" unless it found and closed that dead listener. Connect refuses a
     * closed reactor with an IllegalStateException; bind now does the same, before it binds.
     */
    @Test
    void aBindOnAClosedReactorIsRefusedAndLeavesThePortFree() throws Exception {
        InetSocketAddress address = freeLoopbackAddress();
        Reactor closedReactor = Reactor.open();
        closedReactor.close();
        ReactorGroup closedGroup = ReactorGroup.open(1);
        closedGroup.close();
        AsyncTcpListener[] dead = new AsyncTcpListener[2];
        try {
            assertThatThrownBy(() -> dead[0] = AsyncTcpListener.bind(address, closedReactor))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
            assertThatThrownBy(() -> dead[1] = AsyncTcpListener.bind(address, closedGroup))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
            try (Reactor fresh = Reactor.open();
                    AsyncTcpListener listener = AsyncTcpListener.bind(address, fresh)) {
                assertThat(listener.localAddress().getPort()).isEqualTo(address.getPort());
            }
        } finally {
            for (AsyncTcpListener l : dead) {
                if (l != null) {
                    l.close();
                }
            }
        }
    }

    /**
     * An address of another kind than {@link InetSocketAddress} (a Unix-domain one) failed with
     * the JDK's UnsupportedAddressTypeException, which carries no message at all: from the first
     * poll of a connect (not from the call that took the bad argument), and from bind. Both now
     * refuse it at the call with an IllegalArgumentException that names the address.
     */
    @Test
    void anAddressOfAnotherKindIsRefusedAtTheCallWithAMessage() throws Exception {
        SocketAddress unix = UnixDomainSocketAddress.of("/tmp/spindle-edge-test.sock");
        try (Reactor reactor = Reactor.open()) {
            assertThatThrownBy(() -> AsyncTcpStream.connect(unix, reactor))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("spindle-edge-test.sock");
            assertThatThrownBy(() -> AsyncTcpListener.bind(unix, reactor))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("spindle-edge-test.sock");
        }
    }

    /**
     * {@link AsyncTcpListener#isOpen()} promises that once the listener's reactor is closed
     * "every accept then fails at once", which is what the accept loop of its Javadoc stops on.
     * An accept that found a connection in the backlog still took it and handed it out as a
     * stream on the closed reactor, whose first read that had to wait failed: a server loop went
     * on accepting connections it could not serve for as long as clients came, instead of
     * stopping. The connection now stays in the backlog (reset when the listener closes).
     */
    @Test
    void anAcceptOnAClosedReactorFailsEvenWithAConnectionWaiting() throws Exception {
        Reactor reactor = Reactor.open();
        try (AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
                Socket client = new Socket()) {
            client.connect(listener.localAddress(), 5_000);   // in the backlog once this returns
            reactor.close();
            assertThat(listener.isOpen()).isFalse();
            AsyncTcpStream[] accepted = new AsyncTcpStream[1];
            try {
                assertThatThrownBy(() -> accepted[0] = TestExecutor.tenSecondLimit().blockOn(listener.accept()))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("reactor is closed");
            } finally {
                if (accepted[0] != null) {
                    accepted[0].close();
                }
            }
        } finally {
            reactor.close();
        }
    }

    // ------------------------------------------------------------------ found correct

    @Test
    void reactorsAndGroupsOpenedAndClosedLeaveNoDescriptorsNorThreads() throws Exception {
        for (int i = 0; i < 5; i++) {
            Reactor.open().close();
            ReactorGroup.open(2).close();
            ReactorGroup.openDriven(2).close();
        }
        int fds = openFds();
        int threads = Thread.activeCount();
        for (int i = 0; i < 100; i++) {
            Reactor.open().close();
            ReactorGroup.open(2).close();
            ReactorGroup.openDriven(2).close();
        }
        assertThat(openFds()).as("descriptors after 100 rounds, %d before", fds).isLessThanOrEqualTo(fds);
        assertThat(Thread.activeCount()).as("threads after 100 rounds, %d before", threads).isLessThanOrEqualTo(threads);
    }

    @Test
    void manyConnectAcceptCloseCyclesLeakNoDescriptors() throws Exception {
        InetSocketAddress refused = freeLoopbackAddress();
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor)) {
            Runnable cycle = () -> {
                TestExecutor ex = TestExecutor.tenSecondLimit();
                CompletableFuture<AsyncTcpStream> accepted = new CompletableFuture<>();
                ex.spawn(Async.map(listener.accept(), accepted::complete));
                AsyncTcpStream client = ex.blockOn(AsyncTcpStream.connect(listener.localAddress(), reactor));
                AsyncTcpStream server = ex.blockOn(cx -> accepted.isDone() ? Poll.ready(accepted.join()) : pendingAgain(cx));
                ex.blockOn(client.writeAll(ByteBuffer.wrap(new byte[] {42})));
                ByteBuffer one = ByteBuffer.allocate(1);
                assertThat(ex.blockOn(server.read(one))).isEqualTo(1);
                client.close();
                assertThat(ex.blockOn(server.read(ByteBuffer.allocate(1)))).isEqualTo(-1);
                server.close();
                assertThatThrownBy(() -> ex.blockOn(AsyncTcpStream.connect(refused, reactor)))
                        .isInstanceOf(UncheckedIOException.class);
            };
            for (int i = 0; i < 10; i++) {
                cycle.run();                   // warm up
            }
            awaitRegisteredAtMost(1, reactor); // the listener's, if its accept waited
            int before = openFds();
            for (int i = 0; i < 300; i++) {
                cycle.run();
            }
            assertThat(awaitRegisteredAtMost(1, reactor)).as("channels still registered").isLessThanOrEqualTo(1);
            assertThat(awaitFdsAtMost(before, reactor)).as("descriptors open after 300 cycles, %d before", before)
                    .isLessThanOrEqualTo(before);
        }
    }

    private static <T> Poll<T> pendingAgain(dev.spindle.async.Context cx) {
        cx.waker().wake();
        return Poll.pending();
    }


    /** One accepted connection: our stream, the plain socket at the other end, and what serves them. */
    private record Connection(AsyncTcpStream s, Socket client, Reactor reactor, AsyncTcpListener listener,
            AsyncRuntime runtime) {
    }

    @FunctionalInterface
    private interface OnAConnection {
        void run(Connection c) throws Exception;
    }

    /**
     * Runs {@code test} on a connection a plain client (with a receive buffer of
     * {@code clientReceiveBuffer} bytes if positive) makes to a listener on a fresh reactor, with
     * a runtime of {@code workers} workers (none if 0) for what the test spawns; closes it all.
     */
    private static void onAConnection(int workers, int clientReceiveBuffer, OnAConnection test) throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
                Socket client = new Socket();
                AsyncRuntime runtime = workers > 0 ? AsyncRuntime.builder().workers(workers).build() : null) {
            if (clientReceiveBuffer > 0) {
                client.setReceiveBufferSize(clientReceiveBuffer);
            }
            client.connect(listener.localAddress(), 5_000);
            AsyncTcpStream s = TestExecutor.tenSecondLimit().blockOn(listener.accept());
            try {
                test.run(new Connection(s, client, reactor, listener, runtime));
            } finally {
                s.close();
            }
        }
    }

    /** Reads {@code client} to its end on another thread: the byte count and their CRC-32. */
    private static CompletableFuture<long[]> readToTheEnd(Socket client) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                InputStream in = client.getInputStream();
                CRC32 crc = new CRC32();
                byte[] chunk = new byte[4096];
                long total = 0;
                for (int n; (n = in.read(chunk)) > 0; total += n) {
                    crc.update(chunk, 0, n);
                }
                return new long[] {total, crc.getValue()};
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, r -> new Thread(r, "reader").start());   // its own thread: it blocks until the end
    }

    /** {@code length} random bytes from {@code seed}. */
    private static byte[] randomBytes(int length, long seed) {
        byte[] payload = new byte[length];
        new Random(seed).nextBytes(payload);
        return payload;
    }

    private static void assertReceivedExactly(CompletableFuture<long[]> received, byte[] payload) throws Exception {
        CRC32 sent = new CRC32();
        sent.update(payload);
        long[] got = received.get(50, TimeUnit.SECONDS);
        assertThat(got[0]).as("bytes received").isEqualTo(payload.length);
        assertThat(got[1]).as("their CRC-32").isEqualTo(sent.getValue());
    }

    /** {@code h} failed with an I/O error (an UncheckedIOException) whose root cause is {@code root}. */
    private static void assertFailsWithAnIoError(JoinHandle<?> h, Class<? extends Throwable> root) {
        assertThatThrownBy(() -> h.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(UncheckedIOException.class)
                .hasRootCauseInstanceOf(root);
    }

    @Test
    void closeFailsAPendingReadWithAClosedChannelCauseAndFreesTheRegistration() throws Exception {
        onAConnection(1, 0, c -> {
            // a first read arms the read-ahead; the second waits on it
            c.client().getOutputStream().write(1);
            assertThat(TestExecutor.tenSecondLimit().blockOn(c.s().read(ByteBuffer.allocate(4)))).isEqualTo(1);
            CountDownLatch pending = new CountDownLatch(1);
            JoinHandle<Integer> read = c.runtime().spawn(signalPending(c.s().read(ByteBuffer.allocate(4)), pending));
            assertThat(pending.await(10, TimeUnit.SECONDS)).isTrue();
            c.s().close();
            assertFailsWithAnIoError(read, ClosedChannelException.class);
            assertThat(c.client().getInputStream().read()).isEqualTo(-1);
            int listenerOnly = c.listener().registration().channel.isRegistered() ? 1 : 0;  // if its accept waited
            assertThat(awaitRegisteredAtMost(listenerOnly, c.reactor()))
                    .as("the stream's channel deregistered").isEqualTo(listenerOnly);
        });
    }

    @Test
    void closeFailsAReadAndAWriteBothPendingOnOneStream() throws Exception {
        onAConnection(2, 4096, c -> {
            CountDownLatch pending = new CountDownLatch(2);
            JoinHandle<Integer> read = c.runtime().spawn(signalPending(c.s().read(ByteBuffer.allocate(4)), pending));
            // the client never reads: this write fills both buffers and waits
            JoinHandle<Void> write = c.runtime().spawn(
                    signalPending(c.s().writeAll(ByteBuffer.allocateDirect(32 << 20)), pending));
            assertThat(pending.await(10, TimeUnit.SECONDS)).isTrue();
            c.s().close();
            assertFailsWithAnIoError(read, ClosedChannelException.class);
            assertFailsWithAnIoError(write, ClosedChannelException.class);
        });
    }

    /** Our half-close while a write waits for the send buffer: the write fails, it does not hang. */
    @Test
    void shutdownOutputFailsAWriteThatWaits() throws Exception {
        onAConnection(1, 4096, c -> {
            CountDownLatch pending = new CountDownLatch(1);
            JoinHandle<Void> write = c.runtime().spawn(
                    signalPending(c.s().writeAll(ByteBuffer.allocateDirect(32 << 20)), pending));
            assertThat(pending.await(10, TimeUnit.SECONDS)).isTrue();
            c.s().shutdownOutput();
            assertFailsWithAnIoError(write, Throwable.class);
            assertThat(c.s().isOpen()).isTrue();
        });
    }

    /** A writeAll given up on (timed out) has moved {@code src} past what it wrote: nothing lost, nothing twice. */
    @Test
    void aTimedOutWriteAllResumedLater() throws Exception {
        byte[] payload = randomBytes(16 << 20, 35);
        onAConnection(1, 4096, c -> {
            ByteBuffer src = ByteBuffer.wrap(payload);
            JoinHandle<Void> timedOut = c.runtime().spawn(Async.timeout(c.s().writeAll(src), Duration.ofMillis(100)));
            assertThatThrownBy(() -> timedOut.get(10, TimeUnit.SECONDS)).hasRootCauseInstanceOf(TimeoutException.class);
            assertThat(src.position()).as("bytes written before the timeout").isBetween(1, payload.length - 1);
            CompletableFuture<long[]> received = readToTheEnd(c.client());
            c.runtime().spawn(c.s().writeAll(src)).get(30, TimeUnit.SECONDS);
            c.s().shutdownOutput();
            assertReceivedExactly(received, payload);
        });
    }

    @Test
    void twoReadsPendingAtOnceBothCompleteAndKeepTheBytesInOrder() throws Exception {
        onAConnection(2, 0, c -> {
            CountDownLatch pending = new CountDownLatch(2);
            ByteBuffer a = ByteBuffer.allocate(1);
            ByteBuffer b = ByteBuffer.allocate(1);
            JoinHandle<Integer> ra = c.runtime().spawn(signalPending(c.s().read(a), pending));
            JoinHandle<Integer> rb = c.runtime().spawn(signalPending(c.s().read(b), pending));
            assertThat(pending.await(10, TimeUnit.SECONDS)).isTrue();
            c.client().getOutputStream().write(new byte[] {'x', 'y'});
            assertThat(ra.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(rb.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(new String(new byte[] {a.get(0), b.get(0)}, "US-ASCII")).isIn("xy", "yx");
        });
    }

    @Test
    void aTimedOutReadLosesNoBytesAndTheNextReadGetsThem() throws Exception {
        onAConnection(1, 0, c -> {
            for (int round = 0; round < 3; round++) {
                JoinHandle<Integer> timedOut = c.runtime().spawn(
                        Async.timeout(c.s().read(ByteBuffer.allocate(8)), Duration.ofMillis(50)));
                assertThatThrownBy(() -> timedOut.get(10, TimeUnit.SECONDS))
                        .hasRootCauseInstanceOf(TimeoutException.class);
                c.client().getOutputStream().write(new byte[] {(byte) round, 7});
                ByteBuffer got = ByteBuffer.allocate(8);
                while (got.position() < 2) {
                    assertThat(c.runtime().spawn(c.s().read(got)).get(10, TimeUnit.SECONDS)).isPositive();
                }
                assertThat(got.get(0)).isEqualTo((byte) round);
                assertThat(got.get(1)).isEqualTo((byte) 7);
            }
        });
    }

    @Test
    void afterOurShutdownOutputThePeerSeesTheEndAndWeStillRead() throws Exception {
        onAConnection(0, 0, c -> {
            AsyncTcpStream s = c.s();
            TestExecutor.tenSecondLimit().blockOn(s.writeAll(ByteBuffer.wrap(new byte[] {5})));
            s.shutdownOutput();
            InputStream in = c.client().getInputStream();
            assertThat(in.read()).isEqualTo(5);
            assertThat(in.read()).isEqualTo(-1);
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(s.write(ByteBuffer.wrap(new byte[] {1}))))
                    .isInstanceOf(UncheckedIOException.class);
            c.client().getOutputStream().write(new byte[] {8, 9});
            c.client().shutdownOutput();
            ByteBuffer got = ByteBuffer.allocate(4);
            int n;
            while ((n = TestExecutor.tenSecondLimit().blockOn(s.read(got))) > 0) {
                // keep reading
            }
            assertThat(n).isEqualTo(-1);
            assertThat(got.flip()).isEqualTo(ByteBuffer.wrap(new byte[] {8, 9}));
            assertThat(TestExecutor.tenSecondLimit().blockOn(s.read(ByteBuffer.allocate(1)))).isEqualTo(-1);
            assertThat(TestExecutor.tenSecondLimit().blockOn(s.write(ByteBuffer.allocate(0)))).isZero();
        });
    }

    @Test
    void aResetByThePeerFailsAPendingReadAndTheNextWrite() throws Exception {
        onAConnection(1, 0, c -> {
            AsyncTcpStream s = c.s();
            CountDownLatch pending = new CountDownLatch(1);
            JoinHandle<Integer> read = c.runtime().spawn(signalPending(s.read(ByteBuffer.allocate(4)), pending));
            assertThat(pending.await(10, TimeUnit.SECONDS)).isTrue();
            c.client().setSoLinger(true, 0);
            c.client().close();                // RST
            assertFailsWithAnIoError(read, Throwable.class);
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(s.read(ByteBuffer.allocate(4))))
                    .isInstanceOf(UncheckedIOException.class);
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(s.writeAll(ByteBuffer.allocate(1 << 20))))
                    .isInstanceOf(UncheckedIOException.class);
        });
    }

    /** 64 MiB from one heap buffer to a reader with a small window: every byte, in order. */
    @Test
    void a64MiBWriteToASlowReaderDeliversEveryByte() throws Exception {
        byte[] payload = randomBytes(64 << 20, 34);
        onAConnection(0, 8192, c -> {
            CompletableFuture<long[]> received = readToTheEnd(c.client());
            ByteBuffer src = ByteBuffer.wrap(payload);
            new TestExecutor(Integer.MAX_VALUE, 50_000).blockOn(c.s().writeAll(src));
            assertThat(src.hasRemaining()).isFalse();
            c.s().shutdownOutput();
            assertReceivedExactly(received, payload);
        });
    }
}
