/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The echo server on virtual threads (JDK 21+): plain blocking {@link ServerSocket} and
 * {@link Socket} I/O, one virtual thread accepting and one per connection, each reading into a
 * buffer and writing it back until end of stream. A blocked read parks the virtual thread and
 * frees its carrier, so this is the thread-per-connection style at event-loop cost.
 *
 * <p>The code compiles for Java 17, so the executor comes from
 * {@code Executors.newVirtualThreadPerTaskExecutor()} looked up at run time; {@link #available()}
 * says whether this JVM has it.
 *
 * <p><b>Carriers.</b> The JDK runs virtual threads on one JVM-wide scheduler whose parallelism is
 * read once, when the first virtual thread starts, from the system property
 * {@value #PARALLELISM_PROPERTY}. The first server opened sets it to its worker count unless it is
 * already set, so that the carriers match the other servers' threads; later servers share that
 * scheduler whatever their worker count ({@link #carriers()} tells the figure in force).
 */
final class VirtualThreadEchoServer extends ListeningServer {

    static final String PARALLELISM_PROPERTY = "jdk.virtualThreadScheduler.parallelism";

    private static final MethodHandle NEW_EXECUTOR = lookup();
    private static String carriers;

    private final ServerSocket listener;
    private final ExecutorService threads;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    VirtualThreadEchoServer(int workers) throws IOException {
        super(EchoServers.VIRTUAL_THREADS);
        if (!available()) {
            throw new UnsupportedOperationException("virtual threads need JDK 21+, this is Java "
                    + System.getProperty("java.version"));
        }
        threads = newExecutor(workers);
        try {
            listener = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        } catch (IOException | RuntimeException e) {
            threads.shutdownNow();
            throw e;
        }
        listening((InetSocketAddress) listener.getLocalSocketAddress());
        threads.execute(this::acceptLoop);
    }

    /** Whether this JVM has virtual threads. */
    static boolean available() {
        return NEW_EXECUTOR != null;
    }

    /** The carrier parallelism in force, or null before the first server opened. */
    static synchronized String carriers() {
        return carriers;
    }

    private static MethodHandle lookup() {
        try {
            return MethodHandles.publicLookup().findStatic(Executors.class, "newVirtualThreadPerTaskExecutor",
                    MethodType.methodType(ExecutorService.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;                          // before JDK 21
        }
    }

    private static synchronized ExecutorService newExecutor(int workers) {
        if (carriers == null) {
            if (System.getProperty(PARALLELISM_PROPERTY) == null) {
                System.setProperty(PARALLELISM_PROPERTY, Integer.toString(workers));
            }
            carriers = System.getProperty(PARALLELISM_PROPERTY);
        }
        try {
            return (ExecutorService) NEW_EXECUTOR.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot create a virtual-thread executor", t);
        }
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                return;                           // closed
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
        threads.shutdown();
        try {
            if (!threads.awaitTermination(10, TimeUnit.SECONDS)) {
                threads.shutdownNow();
            }
        } catch (InterruptedException e) {
            threads.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
