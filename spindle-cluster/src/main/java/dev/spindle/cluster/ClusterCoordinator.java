/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Objects;

/**
 * The scheduler side of a cluster whose workers are reached through a caller-supplied
 * {@link Transport}, for example in other JVMs. It owns the scheduler and hands out the
 * {@link Client}; the transport feeds worker messages in through {@link #receive}.
 *
 * <pre>{@code
 * ClusterCoordinator coordinator = ClusterCoordinator.start(
 *         CoordinatorSettings.builder().workers(3).threadsPerWorker(2).build(), transport);
 * transport.onMessage(coordinator::receive);          // the transport's own wiring
 * ClusterFuture<Integer> one = coordinator.client().submit("one", args -> 1);
 * }</pre>
 *
 * <p>The {@link CoordinatorSettings}: the number of workers and their threads must match the
 * remote workers; bandwidth and latency are the scheduler's estimates of
 * the transfer cost. {@link #close()} fails unfinished futures with
 * {@link IllegalStateException}; it does not close the transport, which the caller owns.
 */
public final class ClusterCoordinator implements AutoCloseable {

    private final GraphScheduler scheduler;
    private final Client client;
    private final int workers;

    private ClusterCoordinator(CoordinatorSettings settings, Transport transport) {
        this.workers = settings.workers();
        this.scheduler = new GraphScheduler(settings, transport);
        this.client = new Client(scheduler);
    }

    /**
     * Starts a scheduler for {@code settings.workers} workers reached through {@code transport}.
     *
     * @throws NullPointerException if an argument is null
     */
    public static ClusterCoordinator start(CoordinatorSettings settings, Transport transport) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(transport, "transport");
        return new ClusterCoordinator(settings, transport);
    }

    /** The number of workers, numbered {@code 0..workers()-1}. */
    public int workers() {
        return workers;
    }

    /** The client of this cluster. */
    public Client client() {
        return client;
    }

    /**
     * Hands a worker's message (or {@link Message.WorkerLost}) to the scheduler; thread-safe,
     * never blocks. Messages after {@link #close()} are dropped.
     */
    public void receive(Message.ToScheduler message) {
        scheduler.receive(Objects.requireNonNull(message, "message"));
    }

    /** Stops the scheduler; unfinished futures fail with {@link IllegalStateException}. Idempotent. */
    @Override
    public void close() {
        scheduler.close();
    }
}
