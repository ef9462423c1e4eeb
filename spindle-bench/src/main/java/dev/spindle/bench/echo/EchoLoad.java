/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A closed-loop load generator for an echo server on loopback: C connections, each sending a
 * request of a fixed size and waiting for the whole echo before it sends the next, for a warm-up
 * period and then a measured one. Every echoed byte is checked; a broken server fails the run
 * with an {@link EchoCheckException} instead of posting a figure.
 *
 * <pre>{@code
 * EchoLoad.Result r = EchoLoad.run(server.address(),
 *         new EchoLoad.Settings(64, 1, 64, Duration.ofMillis(250), Duration.ofSeconds(2)));
 * r.requestsPerSecond(); r.latencyNanos().getValueAtPercentile(99.0);
 * }</pre>
 *
 * <p><b>Design.</b> The generator uses non-blocking NIO on a small fixed set of client threads,
 * each with a {@link Selector} of its own and an equal share of the connections. Closed-loop load
 * needs C requests in flight at once; with blocking sockets that takes C client threads, which on
 * a small machine would outnumber the server's threads and turn the run into a test of the OS
 * scheduler. With a selector per thread, C is independent of the client's thread count.
 *
 * <p><b>Checking.</b> Each request's bytes depend on its connection and sequence number, so an
 * echo of an older request, of another connection's request, or with a single byte changed does
 * not match. A response is read into a buffer exactly one request long, so extra bytes would
 * appear at the head of the next response; and at the end each connection half-closes and must
 * then read nothing but end of stream, which catches extra bytes after the last request and a
 * server that never closes. A server that closes early, or that leaves a request unanswered for
 * {@link #STALL_NANOS} (10 s), fails the run too.
 *
 * <p><b>Measurement.</b> A request's latency is from the start of its write to the end of the
 * read that completes its echo. Requests that complete in the measured period are counted and
 * recorded (nanoseconds, in an HdrHistogram with 3 significant digits); those of the warm-up, and
 * those still in flight when it ends, are checked but not counted.
 */
public final class EchoLoad {

    /** How long a connection may wait for an echo, or for end of stream at the end, before the run fails. */
    static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /**
     * The stall limit of the runs started from now: {@link #STALL_NANOS}, shorter only in a test
     * of a server that stalls, which would otherwise sit the whole limit out. Each client loop
     * reads it once.
     */
    static volatile long stallNanosForTests = STALL_NANOS;

    private EchoLoad() {
    }

    /**
     * What to run.
     *
     * @param connections concurrent connections, each with one request in flight (1 to 10,000)
     * @param clientThreads client threads (1 to 1,024); more than {@code connections} are not used
     * @param payloadBytes bytes per request (1 to 1 MiB)
     * @param warmup unmeasured period at the start (zero or more)
     * @param measure measured period (more than zero, at most an hour)
     */
    public record Settings(int connections, int clientThreads, int payloadBytes, Duration warmup, Duration measure) {

        /**
         * @throws IllegalArgumentException naming the first value out of range
         * @throws NullPointerException if a duration is null
         */
        public Settings {
            range("connections", connections, 1, 10_000);
            range("client threads", clientThreads, 1, 1024);
            range("payload bytes", payloadBytes, 1, 1 << 20);
            Objects.requireNonNull(warmup, "warmup");
            Objects.requireNonNull(measure, "measure");
            if (warmup.isNegative()) {
                throw new IllegalArgumentException("warmup must not be negative, was " + warmup);
            }
            if (measure.isNegative() || measure.isZero() || measure.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException("measured period must be more than 0 and at most 1 hour, was "
                        + measure);
            }
        }

        private static void range(String what, int v, int min, int max) {
            if (v < min || v > max) {
                throw new IllegalArgumentException(what + " must be between " + min + " and " + max + ", was " + v);
            }
        }
    }

    /**
     * What a run measured.
     *
     * @param requests requests completed in the measured period
     * @param seconds length of the measured period
     * @param latencyNanos the latency of each of those requests, in nanoseconds
     * @param checked requests whose echo was checked, measured or not: at least one per connection
     */
    public record Result(long requests, double seconds, Histogram latencyNanos, long checked) {

        /** Completed requests per second of the measured period. */
        public double requestsPerSecond() {
            return requests / seconds;
        }
    }

    /**
     * Runs the load against {@code server} and checks every echo.
     *
     * @throws EchoCheckException if the server breaks the echo contract
     * @throws UncheckedIOException if a connection cannot be made or fails
     */
    public static Result run(InetSocketAddress server, Settings settings) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(settings, "settings");
        int threads = Math.min(settings.clientThreads(), settings.connections());
        List<List<Conn>> shares = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            shares.add(new ArrayList<>());
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread th = new Thread(r, "echo-load");
            th.setDaemon(true);
            return th;
        });
        List<Conn> all = new ArrayList<>();
        try {
            for (int c = 0; c < settings.connections(); c++) {
                Conn conn = new Conn(c, settings.payloadBytes(), connect(server, c));
                all.add(conn);
                shares.get(c % threads).add(conn);
            }
            long start = System.nanoTime();
            long measureFrom = start + settings.warmup().toNanos();
            long measureTo = measureFrom + settings.measure().toNanos();
            // taken as they end, not in the order started: a failure on any thread ends the run now,
            // not once the threads before it have run their whole measured period
            CompletionService<ClientLoop> ended = new ExecutorCompletionService<>(pool);
            List<Future<ClientLoop>> futures = new ArrayList<>();
            for (List<Conn> share : shares) {
                futures.add(ended.submit(() -> new ClientLoop(share, measureFrom, measureTo).run()));
            }
            Histogram latency = new Histogram(3);
            long requests = 0;
            long checked = 0;
            for (int i = 0; i < futures.size(); i++) {
                ClientLoop done = join(ended, futures);
                latency.add(done.latency);
                requests += done.measured;
                for (Conn c : done.conns) {
                    checked += c.sequence;
                }
            }
            return new Result(requests, settings.measure().toNanos() / 1e9, latency, checked);
        } finally {
            pool.shutdownNow();
            for (Conn c : all) {
                c.close();
            }
        }
    }

    private static SocketChannel connect(InetSocketAddress server, int index) {
        try {
            SocketChannel ch = SocketChannel.open(server);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.configureBlocking(false);
            return ch;
        } catch (IOException e) {
            throw new UncheckedIOException("connection " + index + " to " + server + " failed", e);
        }
    }

    /**
     * The next client thread to end: the first failure of any ends the run (the others are
     * interrupted).
     */
    private static ClientLoop join(CompletionService<ClientLoop> ended, List<Future<ClientLoop>> all) {
        try {
            return ended.take().get();
        } catch (ExecutionException e) {
            all.forEach(x -> x.cancel(true));
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof IOException) {
                throw new UncheckedIOException((IOException) cause);
            }
            throw new IllegalStateException("client thread failed", cause);
        } catch (InterruptedException e) {
            all.forEach(x -> x.cancel(true));
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the load ran", e);
        }
    }

    /** One connection: the request in flight, its expected echo and how far both have got. */
    private static final class Conn {
        final int index;
        final SocketChannel channel;
        final ByteBuffer request;
        final ByteBuffer response;
        SelectionKey key;
        long sequence;
        long sentAt;
        boolean inFlight;
        boolean ended;

        Conn(int index, int payloadBytes, SocketChannel channel) {
            this.index = index;
            this.channel = channel;
            this.request = ByteBuffer.allocate(payloadBytes);
            this.response = ByteBuffer.allocate(payloadBytes);
        }

        /** Fills the request with bytes unique to this connection and sequence number (xorshift). */
        void fill() {
            long x = (((long) index << 32) ^ sequence) * 0x9E3779B97F4A7C15L + 1;
            byte[] a = request.array();
            for (int i = 0; i < a.length; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
                a[i] = (byte) x;
            }
            request.clear();
            response.clear();
        }

        /** Throws unless the response is exactly the request. */
        void verify() {
            int at = Arrays.mismatch(request.array(), response.array());
            if (at >= 0) {
                throw new EchoCheckException(String.format(
                        "wrong echo on connection %d, request %d: byte %d of %d is %d, expected %d",
                        index, sequence, at, request.capacity(), response.array()[at], request.array()[at]));
            }
        }

        void close() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** One client thread's share of the connections, driven by its own selector. */
    private static final class ClientLoop {
        final List<Conn> conns;
        private final long measureFrom;
        private final long measureTo;
        private final long stallNanos = stallNanosForTests;
        final Histogram latency = new Histogram(3);
        long measured;

        ClientLoop(List<Conn> conns, long measureFrom, long measureTo) {
            this.conns = conns;
            this.measureFrom = measureFrom;
            this.measureTo = measureTo;
        }

        ClientLoop run() throws IOException {
            try (Selector selector = Selector.open()) {
                for (Conn c : conns) {
                    c.key = c.channel.register(selector, 0, c);
                    send(c, System.nanoTime());
                }
                int inFlight = conns.size();
                long lastProgress = System.nanoTime();
                while (inFlight > 0) {
                    selector.select(100);
                    long now = System.nanoTime();
                    for (SelectionKey key : selector.selectedKeys()) {
                        Conn c = (Conn) key.attachment();
                        if (key.isWritable()) {
                            write(c);
                        }
                        if (key.isReadable() && read(c, now)) {
                            lastProgress = now;
                            if (!c.inFlight) {
                                inFlight--;
                            }
                        }
                    }
                    selector.selectedKeys().clear();
                    if (now - lastProgress > stallNanos) {
                        long waiting = conns.stream().filter(c -> c.inFlight).count();
                        throw new EchoCheckException(stalled("no echo", waiting));
                    }
                    if (Thread.interrupted()) {
                        throw new IllegalStateException("interrupted: another client thread failed");
                    }
                }
                awaitEndOfStream(selector);
            }
            return this;
        }

        private void send(Conn c, long now) throws IOException {
            c.fill();
            c.sentAt = now;
            c.inFlight = true;
            write(c);
        }

        /** Writes what the socket takes; waits for writability only if the request did not fit. */
        private void write(Conn c) throws IOException {
            c.channel.write(c.request);
            int ops = SelectionKey.OP_READ | (c.request.hasRemaining() ? SelectionKey.OP_WRITE : 0);
            c.key.interestOps(ops);
        }

        /** Reads; true when an echo completed (and the next request, if any, was sent). */
        private boolean read(Conn c, long now) throws IOException {
            int n = c.channel.read(c.response);
            if (n < 0) {
                throw new EchoCheckException("the server closed connection " + c.index + " after "
                        + c.sequence + " requests, with " + c.response.position() + " of "
                        + c.response.capacity() + " bytes of an echo read");
            }
            if (c.response.hasRemaining()) {
                return false;
            }
            if (c.request.hasRemaining()) {
                throw new EchoCheckException("connection " + c.index + " got a whole echo of request "
                        + c.sequence + " before the request was all sent");
            }
            c.verify();
            long end = System.nanoTime();
            if (end >= measureFrom && end < measureTo) {
                measured++;
                latency.recordValue(end - c.sentAt);
            }
            c.sequence++;
            c.inFlight = false;
            if (end < measureTo) {
                send(c, end);
            } else {
                c.key.interestOps(0);           // done until the end-of-stream check
            }
            return true;
        }

        private void awaitEndOfStream(Selector selector) throws IOException {
            int open = conns.size();
            for (Conn c : conns) {
                c.channel.shutdownOutput();
                c.key.interestOps(SelectionKey.OP_READ);
            }
            ByteBuffer sink = ByteBuffer.allocate(1);
            long since = System.nanoTime();
            while (open > 0) {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    Conn c = (Conn) key.attachment();
                    sink.clear();
                    int n = c.channel.read(sink);
                    if (n > 0) {
                        throw new EchoCheckException("the server sent more bytes than it was sent on connection "
                                + c.index + ", after " + c.sequence + " requests");
                    }
                    if (n < 0 && !c.ended) {
                        c.ended = true;
                        key.cancel();
                        open--;
                    }
                }
                selector.selectedKeys().clear();
                if (System.nanoTime() - since > stallNanos) {
                    throw new EchoCheckException(stalled("the server did not close",
                            conns.stream().filter(c -> !c.ended).count()));
                }
            }
        }

        private String stalled(String what, long waiting) {
            return what + " for " + TimeUnit.NANOSECONDS.toSeconds(stallNanos) + " s on " + waiting
                    + " of " + conns.size() + " connections of a client thread";
        }
    }
}
