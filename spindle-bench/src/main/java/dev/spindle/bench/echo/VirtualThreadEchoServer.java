/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import dev.spindle.bench.runtime.VirtualThreads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * The echo server on virtual threads (JDK 21+): plain blocking {@link ServerSocket} and
 * {@link Socket} I/O, one virtual thread accepting and one per connection, each reading into a
 * buffer and writing it back until end of stream. A blocked read parks the virtual thread and
 * frees its carrier, so this is the thread-per-connection style at event-loop cost.
 *
 * <p>The executor and its carriers come from {@link VirtualThreads}: the code compiles for Java
 * 17, and the carriers are JVM-wide, sized by the first virtual-thread executor of any benchmark
 * (its worker count) unless {@value VirtualThreads#PARALLELISM_PROPERTY} is already set.
 */
final class VirtualThreadEchoServer extends ListeningServer {

    private final ServerSocket listener;
    /** The accept loop's thread and the connections' (package-private: tests check it ends). */
    final ExecutorService threads;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    VirtualThreadEchoServer(int workers) throws IOException {
        this(workers, new ServerSocket(0, 1024, InetAddress.getLoopbackAddress()));
    }

    /** As the public one, on {@code listener}, a bound socket that this server owns from now on. */
    VirtualThreadEchoServer(int workers, ServerSocket listener) throws IOException {
        super(EchoServers.VIRTUAL_THREADS);
        this.listener = listener;
        try {
            threads = VirtualThreads.newPerTaskExecutor(workers);
        } catch (RuntimeException | Error e) {
            listener.close();
            throw e;
        }
        listening((InetSocketAddress) listener.getLocalSocketAddress());
        threads.execute(this::acceptLoop);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                // closed: the loop ends; else one connection failed (reset before it was
                // accepted, a file-descriptor limit reached for a moment), and the next is served
                // rather than leaving the backlog unserved for good
                continue;
            }
            open.add(s);
            try {
                threads.execute(() -> serve(s));
            } catch (RejectedExecutionException e) {
                release(s);                       // closing
            }
        }
    }

    private void serve(Socket s) {
        try {
            s.setTcpNoDelay(true);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] buf = new byte[SpindleEchoServer.BUFFER_BYTES];
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            // a reset peer or a close at shutdown: drop the connection
        } finally {
            release(s);
        }
    }

    private void release(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        open.remove(s);
    }

    @Override
    void shutdown() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        open.forEach(this::release);          // wakes each blocked read with an exception
        VirtualThreads.shutdown(threads, Duration.ofSeconds(10));
    }
}
