/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.AsyncPolicy;
import dev.spindle.async.io.AsyncTcpListener;
import dev.spindle.async.io.AsyncTcpStream;
import dev.spindle.async.io.ReactorGroup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The echo server on Spindle's async runtime: an {@link AsyncRuntime} ({@link
 * AsyncPolicy#WORK_STEALING}, N workers) runs one accept-loop task and one task per connection,
 * which reads into a buffer and writes it all back until end of stream. The sockets are served by
 * a {@link ReactorGroup} of the server's own ({@link #reactors(int, boolean)} selectors) with the
 * connections spread over them, so closing the server stops every thread it started. As
 * {@value EchoServers#SPINDLE_DRIVEN} the group is {@linkplain ReactorGroup#openDriven driven}:
 * no selector threads, the runtime's idle workers wait in the selectors
 * ({@code AsyncRuntime.Builder.driveIo}) and run the tasks their readiness wakes.
 *
 * <p>Open connections are kept in a set so that {@link #close()} can close them: a closed stream
 * wakes its waiting task, which fails and ends, and only then is the runtime shut down.
 */
final class SpindleEchoServer extends ListeningServer {

    /** Per-connection buffer; a request larger than this is echoed in several writes. */
    static final int BUFFER_BYTES = 16 * 1024;

    /**
     * Overrides the number of reactors ({@link #reactors(int, boolean)}), for experiments:
     * {@code -Dspindle.bench.echo.reactors=N}.
     */
    static final String REACTORS_PROPERTY = "spindle.bench.echo.reactors";

    private final ReactorGroup reactors;
    private final AsyncTcpListener listener;
    private final AsyncRuntime runtime;
    private final Set<AsyncTcpStream> open = ConcurrentHashMap.newKeySet();

    SpindleEchoServer(int workers, boolean driven) throws IOException {
        this(workers, driven, AsyncTcpListener::accept);
    }

    /** As the public one, with the accept loop's accepts made by {@code accept} (tests fail some). */
    SpindleEchoServer(int workers, boolean driven, Function<AsyncTcpListener, AsyncTask<AsyncTcpStream>> accept)
            throws IOException {
        super(driven ? EchoServers.SPINDLE_DRIVEN : EchoServers.SPINDLE);
        reactors = driven ? ReactorGroup.openDriven(reactors(workers, true)) : ReactorGroup.open(reactors(workers, false));
        AsyncTcpListener l = null;
        AsyncRuntime rt = null;
        try {
            l = AsyncTcpListener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactors);
            AsyncRuntime.Builder b = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.WORK_STEALING)
                    .name("echo-spindle");
            if (driven) {
                b.driveIo(reactors.reactors());
            }
            rt = b.build();
        } catch (IOException | RuntimeException e) {
            if (l != null) {
                l.close();
            }
            reactors.close();
            throw e;
        }
        listener = l;
        runtime = rt;
        listening(listener.localAddress());
        AsyncRuntime r = runtime;
        runtime.spawn(acceptLoop(() -> accept.apply(listener), listener::isOpen, stream -> {
            open.add(stream);
            r.spawn(connection(stream));       // spawned inside a task: onto this worker's deque
        }));
    }

    /**
     * Accepts with {@code accept} and hands each connection to {@code serve}, until an accept
     * fails while {@code listening} says no more. A failed accept while still listening (a
     * connection reset before it was accepted, a file-descriptor limit reached for a moment) costs
     * that one connection, not the server: the loop used to end at the first failure, after
     * which connections queued in the backlog unserved.
     */
    static <S> AsyncTask<Void> acceptLoop(
            Supplier<? extends AsyncTask<S>> accept, BooleanSupplier listening, Consumer<? super S> serve) {
        return Async.whileTrue(() -> Async.recover(Async.map(accept.get(), s -> {
            serve.accept(s);
            return true;
        }), error -> listening.getAsBoolean()));
    }

    /** Echoes until end of stream or an error; either way the stream is closed and forgotten. */
    private AsyncTask<Void> connection(AsyncTcpStream stream) {
        return Async.recover(echo(stream), error -> {
            release(stream);                   // a reset peer or a close at shutdown
            return null;
        });
    }

    private AsyncTask<Void> echo(AsyncTcpStream stream) {
        ByteBuffer buf = ByteBuffer.allocate(BUFFER_BYTES);
        return Async.whileTrue(() -> Async.then(stream.read(buf), n -> {
            if (n < 0) {
                release(stream);
                return Async.ready(false);
            }
            buf.flip();
            return Async.map(stream.writeAll(buf), x -> {
                buf.clear();
                return true;
            });
        }));
    }

    private void release(AsyncTcpStream stream) {
        stream.close();
        open.remove(stream);
    }

    @Override
    void shutdown() {
        listener.close();
        for (AsyncTcpStream s : open) {
            s.close();
        }
        runtime.close();
        open.forEach(AsyncTcpStream::close);  // accepted while closing, if any
        reactors.close();
    }

    /**
     * Selectors for {@code workers} workers, unless {@value #REACTORS_PROPERTY} says otherwise
     * (at least one either way). Selector threads: one per four workers, as the shared group has
     * one per four processors. Driven selectors: one per two workers. On 16 workers of a 16-core
     * machine (docs/BENCHMARKS.md, session 19) the driven server served 64 connections at 0.33,
     * 0.47, 0.65, 0.82 and 0.75 of Netty's requests/s with 1, 2, 4, 8 and 16 selectors, and 256
     * connections at 0.87, 0.88 and 0.84 with 4, 8 and 16: a worker waiting in a selector handles
     * its readiness events itself, so a driven group needs more selectors than a group whose
     * threads only hand events over.
     *
     * @throws IllegalArgumentException if the property is not a positive number
     */
    static int reactors(int workers, boolean driven) {
        String p = System.getProperty(REACTORS_PROPERTY);
        if (p == null) {
            return Math.max(1, workers / (driven ? 2 : 4));
        }
        try {
            int n = Integer.parseInt(p.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(REACTORS_PROPERTY + " must be a positive number, was '" + p + "'");
    }
}
