/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

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
public final class ClusterCoordinator implements ClusterView, AutoCloseable {

    /** Worker ids are below this bound; a transport refuses a worker claiming a larger one. */
    public static final int MAX_WORKERS = GraphScheduler.MAX_WORKERS;

    private final GraphScheduler scheduler;
    private final Client client;
    private final CoordinatorSettings settings;

    private ClusterCoordinator(CoordinatorSettings settings, Transport transport) {
        this.settings = settings;
        this.scheduler = new GraphScheduler(settings, transport);
        this.client = new Client(scheduler);
    }

    /**
     * Starts a scheduler for {@code settings.workers} workers reached through {@code transport}.
     *
     * @param settings the workers, their threads and the scheduler's cost estimates and intervals
     * @param transport reaches the workers; the caller owns it and wires its incoming messages to
     *     {@link #receive}
     * @return the running coordinator, which the caller closes
     * @throws NullPointerException if an argument is null
     */
    public static ClusterCoordinator start(CoordinatorSettings settings, Transport transport) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(transport, "transport");
        return new ClusterCoordinator(settings, transport);
    }

    /**
     * The number of workers the cluster starts with, numbered {@code 0..workers()-1}.
     *
     * @return the initial worker count from the settings (workers that join later are not counted)
     */
    public int workers() {
        return settings.workers();
    }

    /**
     * The settings it was started with.
     *
     * @return the settings given to {@link #start}
     */
    public CoordinatorSettings settings() {
        return settings;
    }

    /**
     * A snapshot of the counters, as {@link LocalCluster#stats()} gives them, from what the
     * scheduler knows: a worker's {@code executed} counts the results and failures it accepted
     * from it, its memory the measured sizes of the values it holds (no spilling is reported);
     * {@code bytesTransferred} the bytes the workers reported moving between them (dependency
     * fetches and copies of a retiring worker's values, each value's measured size, as
     * {@link LocalCluster} counts them).
     *
     * @throws java.util.concurrent.RejectedExecutionException once closed
     * @throws IllegalStateException if called on the scheduler's thread (from a {@link Transport}
     *     callback), where the answer could never come
     */
    @Override
    public ClusterStats stats() {
        return scheduler.stats();
    }

    /**
     * The steal log, oldest first (the most recent 10,000 events), as {@link LocalCluster#stealEvents()}.
     *
     * @throws java.util.concurrent.RejectedExecutionException once closed
     */
    @Override
    public List<StealEvent> stealEvents() {
        return scheduler.stealEvents();
    }

    /**
     * The task log, oldest first (the most recent 1,000 runs), as {@link LocalCluster#taskEvents()}.
     *
     * @throws java.util.concurrent.RejectedExecutionException once closed
     */
    @Override
    public List<TaskEvent> taskEvents() {
        return scheduler.taskEvents();
    }

    /**
     * Runs one stealing round now and returns how many steals it requested, as
     * {@link LocalCluster#rebalance()}.
     *
     * @return the number of steal requests sent in this round, 0 or more
     */
    public int rebalance() {
        return scheduler.balanceNow().size();
    }

    /**
     * Admits worker {@code id} with {@code threads} threads, for transports: a worker joining
     * after the start (any id not known yet; ids skipped on the way are recorded as gone), or a
     * fresh incarnation of an id whose worker is gone (lost or retired). The transport must reach
     * it, and every other worker must be able to fetch from it, before this is called.
     *
     * @param id the worker's id, from 0 to {@value #MAX_WORKERS} minus one
     * @param threads the worker's thread count, at least 1
     * @throws IllegalArgumentException if {@code id} is negative or {@code threads} below 1
     * @throws IllegalStateException if worker {@code id} is alive
     */
    public void join(int id, int threads) {
        scheduler.join(id, threads);
    }

    /**
     * Retires worker {@code id} as {@link LocalCluster#retire} does; once it is removed the
     * transport is told ({@link Transport#retired}).
     *
     * @param id the id of the worker to retire
     * @return completes once the worker is removed; fails with {@link IllegalStateException} if the
     *     coordinator closes first
     * @throws IllegalArgumentException if there is no such worker
     * @throws IllegalStateException if it is gone already, or the last active worker
     */
    public CompletableFuture<Void> retire(int id) {
        return scheduler.retire(id);
    }

    /**
     * Completes once the current incarnation of worker {@code id} is gone (its loss handled, or
     * retired), for a transport that lets the id rejoin.
     *
     * @param id the worker's id
     * @return completes (with {@code null}) once that incarnation is gone; already complete if it
     *     is; fails with {@link IllegalStateException} if the coordinator closes first. A wait for
     *     it in a callback of a cluster future throws, as for {@link #retire}'s
     * @throws IllegalArgumentException if there is no such worker
     */
    public CompletableFuture<Void> gone(int id) {
        return scheduler.gone(id);
    }

    /**
     * The client of this cluster.
     *
     * @return the coordinator's one client, thread-safe, shared by all callers
     */
    public Client client() {
        return client;
    }

    /**
     * Hands a worker's message (or {@link Message.WorkerLost}) to the scheduler; thread-safe,
     * never blocks. Messages after {@link #close()} are dropped.
     *
     * @param message a message from a worker, or from the transport about a worker
     * @throws NullPointerException if {@code message} is null
     */
    public void receive(Message.ToScheduler message) {
        scheduler.receive(Objects.requireNonNull(message, "message"));
    }

    /**
     * Stops the scheduler; unfinished futures fail with {@link IllegalStateException}. Idempotent.
     * Called from a {@link Transport} callback (on the scheduler's thread) it returns at once, and
     * the scheduler stops as soon as that callback returns.
     */
    @Override
    public void close() {
        scheduler.close();
    }
}
