/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * A cluster of N workers inside this JVM: one central scheduler, and per worker a data store and
 * a {@link dev.spindle.pool.WorkStealingPool}. Moving a value between workers is delayed by
 * {@code latency + bytes / bandwidth}, so locality costs here what it would on a network and the
 * stealing policy can be tried without machines.
 *
 * <pre>{@code
 * try (LocalCluster cluster = LocalCluster.builder().workers(4).threadsPerWorker(2)
 *         .bandwidth(100e6).latency(Duration.ofMillis(1)).build()) {
 *     Client client = cluster.client();
 *     ClusterFuture<int[]> data = client.scatter("data", new int[] {1, 2, 3}, 0);
 *     ClusterFuture<Integer> sum = client.submit("sum-0", args -> java.util.Arrays.stream((int[]) args.get(0)).sum(), data);
 *     System.out.println(sum.get() + " " + cluster.stats());
 * }
 * }</pre>
 *
 * <p>{@link #close()} stops the scheduler and the workers; every unfinished future completes
 * exceptionally with an {@link IllegalStateException}, and later calls throw
 * {@link java.util.concurrent.RejectedExecutionException}.
 */
public final class LocalCluster implements AutoCloseable {

    private final CoordinatorSettings settings;
    private final long memoryLimit;
    private final LocalTransport transport;
    private final List<ClusterWorker> workers = new ArrayList<>();
    private final GraphScheduler scheduler;
    private final Client client;
    private volatile boolean closed;

    private LocalCluster(CoordinatorSettings settings, long memoryLimit) {
        this.settings = settings;
        this.memoryLimit = memoryLimit;
        this.transport = new LocalTransport(settings.bandwidth(), settings.latencyNanos());
        for (int i = 0; i < settings.workers(); i++) {
            workers.add(new ClusterWorker(i, settings.threadsPerWorker(), transport, memoryLimit));
        }
        this.scheduler = new GraphScheduler(settings, transport);
        transport.connect(workers, scheduler::receive);
        this.client = new Client(scheduler, settings.workers());
    }

    /** Starts a builder with the defaults: 2 workers of 1 thread, 100 MB/s, 1 ms, stealing every 100 ms. */
    public static Builder builder() {
        return new Builder();
    }

    /** The client of this cluster. */
    public Client client() {
        return client;
    }

    /** The number of workers, dead ones included. */
    public int workers() {
        return settings.workers();
    }

    /**
     * Simulates the crash of worker {@code id}: its running tasks are abandoned and the values it
     * held are gone. The scheduler reassigns its tasks and recomputes lost values that are still
     * needed; futures already completed keep their values.
     *
     * @throws IllegalArgumentException if there is no such worker
     */
    public void killWorker(int id) {
        if (id < 0 || id >= workers.size()) {
            throw new IllegalArgumentException("no worker " + id + " (workers 0.." + (workers.size() - 1) + ")");
        }
        checkOpen();
        transport.workerLost(id);
    }

    /**
     * Runs one stealing round now, whether or not periodic stealing is on, and returns how many
     * steals it requested. Tests use it with a zero balance interval to make rounds explicit.
     */
    public int rebalance() {
        checkOpen();
        return scheduler.balanceNow().size();
    }

    /** A snapshot of the counters. */
    public ClusterStats stats() {
        checkOpen();
        return scheduler.stats(workers);
    }

    /** The steal log, oldest first (the most recent 10,000 events). */
    public List<StealEvent> stealEvents() {
        checkOpen();
        return scheduler.stealEvents();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the cluster is closed");
        }
    }

    /** Stops everything; unfinished futures fail with {@link IllegalStateException}. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        scheduler.close();
        for (ClusterWorker w : workers) {
            w.shutdown();
        }
        transport.close();
    }

    /**
     * Builds a {@link LocalCluster}: the scheduler's knobs of {@link CoordinatorSettings} (defined
     * and checked there) plus what only in-process workers have, their memory limit.
     */
    public static final class Builder extends CoordinatorSettings.Knobs<Builder> {
        private long memoryLimit;

        private Builder() {
        }

        /**
         * Each worker's memory limit in bytes (default 0: none). Above 60 % of it in memory a
         * worker spills its least recently used values to disk and reads them back when needed;
         * above 80 % it starts no new task until memory falls (Dask's target and pause fractions).
         */
        public Builder memoryLimitPerWorker(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("memoryLimitPerWorker must not be negative, got " + bytes);
            }
            this.memoryLimit = bytes;
            return this;
        }

        /** Starts the cluster. */
        public LocalCluster build() {
            return new LocalCluster(settings(), memoryLimit);
        }
    }
}
