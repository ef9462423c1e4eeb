/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.bench.runtime.VirtualThreads;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Defects found by review (session 31): the echo servers' accept loops ended at the first failed
 * accept, so one connection reset before it was accepted (or a moment at the file-descriptor
 * limit) stopped the server serving new connections for good, each test failing before its fix.
 */
class EchoAcceptRegressionTest {

    /** What a failed accept of one connection throws from the async listener's accept task. */
    private static <T> AsyncTask<T> failedAccept() {
        return Async.failed(new UncheckedIOException("accept failed",
                new IOException("Connection reset by peer (test)")));
    }

    /** Connects to {@code address} and checks that one message comes back (a hang is a failure). */
    private static void assertEchoes(InetSocketAddress address) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(address, 5_000);
            s.setSoTimeout(5_000);         // an unserved connection sits in the backlog: no echo
            byte[] sent = "ping".getBytes(StandardCharsets.US_ASCII);
            s.getOutputStream().write(sent);
            InputStream in = s.getInputStream();
            byte[] got = new byte[sent.length];
            int n = 0;
            while (n < got.length) {
                int r = in.read(got, n, got.length - n);
                assertThat(r).as("bytes echoed before end of stream").isPositive();
                n += r;
            }
            assertThat(got).isEqualTo(sent);
        }
    }

    @Test
    void theSpindleServerServesOnAfterAFailedAccept() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            AtomicInteger accepts = new AtomicInteger();
            try (SpindleEchoServer server = new SpindleEchoServer(2, false,
                    l -> accepts.getAndIncrement() == 0 ? failedAccept() : l.accept())) {
                assertEchoes(server.address());
                assertEchoes(server.address());
            }
        });
    }

    /**
     * The loop itself: a failed accept while listening costs nothing but that accept, and one
     * after the listener closed ends the loop (rather than spinning on a closed listener).
     */
    @Test
    void theSpindleAcceptLoopSkipsFailuresWhileListeningAndEndsOnceClosed() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("accept-loop").build()) {
                AtomicInteger accepts = new AtomicInteger();
                AtomicBoolean listening = new AtomicBoolean(true);
                List<String> served = new CopyOnWriteArrayList<>();
                AsyncTask<Void> loop = SpindleEchoServer.acceptLoop(() -> {
                    switch (accepts.getAndIncrement()) {
                        case 1:
                            return Async.ready("a");
                        case 3:
                            return Async.ready("b");
                        case 4:
                            listening.set(false);  // the listener is closed: its accept fails
                            return failedAccept();
                        default:
                            return failedAccept();
                    }
                }, listening::get, served::add);
                rt.run(loop);
                assertThat(served).containsExactly("a", "b");
                assertThat(accepts.get()).as("accepts tried").isEqualTo(5);
            }
        });
    }

    /** A listener whose first accept fails as one reset before it was accepted does. */
    private static final class FailingOnceSocket extends ServerSocket {
        private final AtomicBoolean failed = new AtomicBoolean();

        FailingOnceSocket() throws IOException {
            super(0, 1024, InetAddress.getLoopbackAddress());
        }

        @Override
        public Socket accept() throws IOException {
            if (failed.compareAndSet(false, true)) {
                throw new SocketException("Connection reset (test)");
            }
            return super.accept();
        }
    }

    @Test
    void theVirtualThreadServerServesOnAfterAFailedAcceptAndItsLoopEndsOnClose() {
        assumeTrue(VirtualThreads.available(), "virtual threads need JDK 21+");
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            VirtualThreadEchoServer server = new VirtualThreadEchoServer(2, new FailingOnceSocket());
            try {
                assertEchoes(server.address());
                assertEchoes(server.address());
            } finally {
                server.close();
            }
            assertThat(server.threads.isTerminated()).as("accept loop ended with the listener").isTrue();
        });
    }
}
