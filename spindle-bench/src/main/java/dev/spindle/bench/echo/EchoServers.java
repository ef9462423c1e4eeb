/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import dev.spindle.bench.runtime.VirtualThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import io.netty.channel.epoll.Epoll;
import io.netty.util.Version;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The echo servers the benchmark compares, by id:
 *
 * <ul>
 *   <li>{@value #SPINDLE}: Spindle's {@code AsyncRuntime} (WORK_STEALING) with
 *       {@code AsyncTcpListener}/{@code AsyncTcpStream}, one async task per connection, served by
 *       selector threads;</li>
 *   <li>{@value #SPINDLE_DRIVEN}: the same, with the selectors driven by the runtime's idle
 *       workers ({@code AsyncRuntime.Builder.driveIo}, {@code ReactorGroup.openDriven});</li>
 *   <li>{@value #NETTY}: Netty 4.2's NIO event loops;</li>
 *   <li>{@value #VIRTUAL_THREADS}: a virtual thread per connection with blocking sockets (JDK 21+
 *       only; see {@link #unavailableReason}).</li>
 * </ul>
 *
 * <pre>{@code
 * try (EchoServer s = EchoServers.open(EchoServers.SPINDLE, 4)) {
 *     ... s.address() ...
 * }
 * }</pre>
 */
public final class EchoServers {

    public static final String SPINDLE = "spindle";
    public static final String SPINDLE_DRIVEN = "spindle-io-workers";
    public static final String NETTY = "netty";
    /** Netty with its native epoll transport (Linux x86_64 only; else unavailable). */
    public static final String NETTY_EPOLL = "netty-epoll";
    public static final String VIRTUAL_THREADS = "virtual-threads";

    private static final List<String> IDS = List.of(SPINDLE, SPINDLE_DRIVEN, NETTY, NETTY_EPOLL, VIRTUAL_THREADS);

    private EchoServers() {
    }

    /** Every server id, in report order. */
    public static List<String> ids() {
        return IDS;
    }

    /**
     * Why server {@code id} cannot run on this JVM ({@code "needs JDK 21+"}), or null if it can.
     *
     * @throws IllegalArgumentException for an unknown id
     */
    public static String unavailableReason(String id) {
        check(id);
        if (id.equals(VIRTUAL_THREADS) && !VirtualThreads.available()) {
            return "needs JDK 21+";
        }
        if (id.equals(NETTY_EPOLL) && !Epoll.isAvailable()) {
            Throwable cause = Epoll.unavailabilityCause();
            return "Netty's native epoll transport does not load here"
                    + (cause == null ? "" : ": " + cause.getClass().getSimpleName());
        }
        return null;
    }

    /**
     * What server {@code id} runs with {@code workers} workers, in words.
     *
     * @throws IllegalArgumentException for an unknown id
     */
    public static String description(String id, int workers) {
        switch (check(id)) {
            case SPINDLE:
                return "AsyncRuntime WORK_STEALING, " + workers + " workers, one task per connection;"
                        + " AsyncTcpListener/AsyncTcpStream on a ReactorGroup ("
                        + SpindleEchoServer.reactors(workers, false) + " selector threads)";
            case SPINDLE_DRIVEN:
                return "AsyncRuntime WORK_STEALING, " + workers + " workers, one task per connection;"
                        + " AsyncTcpListener/AsyncTcpStream on a driven ReactorGroup ("
                        + SpindleEchoServer.reactors(workers, true) + " selectors, driven by idle workers)";
            case NETTY:
                return "Netty " + nettyVersion() + " MultiThreadIoEventLoopGroup + NioIoHandler, " + workers
                        + " event loops (+1 accepting)";
            case NETTY_EPOLL:
                return "Netty " + nettyVersion() + " MultiThreadIoEventLoopGroup + EpollIoHandler (native), " + workers
                        + " event loops (+1 accepting)";
            default:
                return "a virtual thread per connection, blocking java.net.Socket; "
                        + VirtualThreads.carriersInWords(workers);
        }
    }

    /**
     * Opens server {@code id} with {@code workers} worker threads, listening on an ephemeral
     * loopback port.
     *
     * @throws IllegalArgumentException for an unknown id or {@code workers < 1}
     * @throws UnsupportedOperationException if it cannot run on this JVM
     *         ({@link #unavailableReason})
     * @throws UncheckedIOException if it cannot listen
     */
    public static EchoServer open(String id, int workers) {
        check(id);
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers);
        }
        try {
            switch (id) {
                case SPINDLE:
                    return new SpindleEchoServer(workers, false);
                case SPINDLE_DRIVEN:
                    return new SpindleEchoServer(workers, true);
                case NETTY:
                    return new NettyEchoServer(workers, false);
                case NETTY_EPOLL:
                    if (!Epoll.isAvailable()) {
                        throw new UnsupportedOperationException("the netty-epoll echo server cannot run: "
                                + unavailableReason(id));
                    }
                    return new NettyEchoServer(workers, true);
                default:
                    return new VirtualThreadEchoServer(workers);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the " + id + " echo server", e);
        }
    }

    private static String check(String id) {
        Objects.requireNonNull(id, "id");
        if (!IDS.contains(id)) {
            throw new IllegalArgumentException("unknown echo server '" + id + "'; valid: " + String.join(", ", IDS));
        }
        return id;
    }

    /** From Netty's own version files: a jar's manifest may be another's once the jars are merged. */
    private static String nettyVersion() {
        Map<String, Version> versions = Version.identify();
        Version v = versions.getOrDefault("netty-transport", versions.values().stream().findFirst().orElse(null));
        return v == null ? "4.2" : v.artifactVersion();
    }
}
