/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.TestExecutor;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The reactor reads ahead of a stream's reader into a bounded buffer (see {@link Reactor}):
 * bytes must arrive complete and in order when the buffer fills and read interest is dropped and
 * re-armed, and the end of the stream must come after the buffered bytes.
 */
class ReadAheadTest {

    private static final int FIRST = 1;

    /** A reactor, and a blocking client socket connected to a stream accepted on it. */
    private static final class Peers implements AutoCloseable {
        final Reactor reactor;
        final AsyncTcpListener listener;
        final Socket client = new Socket();
        final TestExecutor ex = new TestExecutor();
        final AsyncTcpStream server;

        private Peers() throws Exception {
            reactor = Reactor.open();
            listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), reactor);
            client.connect(listener.localAddress());
            server = ex.blockOn(listener.accept());
        }

        static Peers open() throws Exception {
            return new Peers();
        }

        @Override
        public void close() throws Exception {
            client.close();
            server.close();
            listener.close();
            reactor.close();
        }
    }

    /** Reads until end of stream in reads of at most {@code chunk} bytes. */
    private static AsyncTask<byte[]> readToEnd(AsyncTcpStream s, int chunk) {
        ByteBuffer buf = ByteBuffer.allocate(chunk);
        return Async.loop(new ByteArrayOutputStream(), (ByteArrayOutputStream acc) ->
                Async.map(s.read(buf), (Integer n) -> {
                    if (n < 0) {
                        return Async.Step.<ByteArrayOutputStream, byte[]>done(acc.toByteArray());
                    }
                    acc.write(buf.array(), 0, n);
                    buf.clear();
                    return Async.Step.<ByteArrayOutputStream, byte[]>next(acc);
                }));
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + (i >>> 8));
        }
        return b;
    }

    /**
     * Accepts one connection from a blocking client, reads its first byte (waiting for it, which
     * arms the read-ahead), lets the client send {@code restBytes} more and half-close while
     * nobody reads for {@code idleMillis}, then reads to the end in reads of {@code chunk} bytes.
     */
    private static byte[] receive(int restBytes, int chunk, long idleMillis) throws Exception {
        byte[] rest = pattern(restBytes);
        try (Peers p = Peers.open()) {
            Socket client = p.client;
            TestExecutor ex = p.ex;
            AsyncTcpStream server = p.server;
            OutputStream out = client.getOutputStream();
            // The first read finds nothing and waits, which arms the read-ahead.
            CompletableFuture<Void> first = CompletableFuture.runAsync(() -> {
                try {
                    Thread.sleep(100);
                    out.write(new byte[FIRST]);
                    out.flush();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(ex.blockOn(server.read(ByteBuffer.allocate(FIRST)))).isEqualTo(FIRST);
            first.get(20, TimeUnit.SECONDS);
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                try {
                    out.write(rest);
                    client.shutdownOutput();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // Nobody reads meanwhile: the reactor fills its buffer and stops reading.
            Thread.sleep(idleMillis);
            byte[] got = ex.blockOn(readToEnd(server, chunk));
            sent.get(20, TimeUnit.SECONDS);
            server.close();
            return got;
        }
    }

    @Test
    void bytesBeyondTheReadAheadBufferArriveCompleteAndInOrder() throws Exception {
        int n = 8 * AsyncTcpStream.READ_AHEAD_BYTES + 123;
        assertThat(receive(n, 1000, 200)).isEqualTo(pattern(n));
    }

    @Test
    void readsLargerThanTheBufferDrainItAndContinue() throws Exception {
        int n = 3 * AsyncTcpStream.READ_AHEAD_BYTES;
        assertThat(receive(n, 2 * AsyncTcpStream.READ_AHEAD_BYTES, 100)).isEqualTo(pattern(n));
    }

    @Test
    void requestsAndRepliesOnAnArmedStreamChangeNoInterest() throws Exception {
        try (Peers p = Peers.open()) {
            Reactor reactor = p.reactor;
            Socket client = p.client;
            TestExecutor ex = p.ex;
            AsyncTcpStream server = p.server;
            ex.spawn(TcpEchoTest.echo(server));
            OutputStream out = client.getOutputStream();
            java.io.InputStream in = client.getInputStream();
            long changesAfterWarmUp = 0;
            for (int i = 0; i < 200; i++) {
                if (i == 10) {
                    changesAfterWarmUp = reactor.queuedChanges();
                }
                out.write(i);
                out.flush();
                // drive the executor until the echo is back
                int b = ex.blockOn(Async.from(CompletableFuture.supplyAsync(() -> {
                    try {
                        return in.read();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                })));
                assertThat(b).isEqualTo(i & 0xff);
            }
            // Without read-ahead every request re-arms read interest: about 190 changes here.
            assertThat(reactor.queuedChanges() - changesAfterWarmUp).isLessThan(10);
            client.close();
        }
    }

    @Test
    void endOfStreamComesAfterTheBufferedBytes() throws Exception {
        assertThat(receive(10, 4, 100)).isEqualTo(pattern(10));
    }
}
